import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, validationFailed } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { OperatorBlockRecord, OperatorEntryScope } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';
import type {
  OperatorBlock,
  OperatorBlockChange,
  OperatorBlockCreate,
  OperatorBlockList,
  OperatorEntryQuery,
} from './operator-block.schemas.js';
import { OperatorFileEntries } from './operator-file-entries.js';

/** What the operator block use cases are built from. */
export interface OperatorBlockDependencies {
  uow: ScopedUnitOfWork<OperatorEntryScope>;
  clock: Clock;
  random: Random;
  cursors: CursorSealer;
  /** For the SHA-256 digest of csam patterns in the audit log. */
  keyedHash: KeyedHash;
}

/** The public record of a stored block (spec 2.8). */
function operatorBlockView(record: OperatorBlockRecord): OperatorBlock {
  return {
    id: record.id,
    pattern: record.pattern,
    reason_code: record.reasonCode,
    public_ref: record.publicRef,
    note: record.note,
    pops: record.pops,
    jurisdictions: record.jurisdictions,
    expires_at: record.expiresAt?.toISOString() ?? null,
    created_by: record.createdBy,
    created_at: record.createdAt.toISOString(),
    removed_by: record.removedBy,
    removed_at: record.removedAt?.toISOString() ?? null,
  };
}

function blockExists(): DomainError {
  return new DomainError('block_exists', 'A live operator block has this pattern already.', {
    fieldErrors: [{ field: 'pattern', message: 'a live operator block has this pattern' }],
  });
}

/**
 * Operator domain blocks (spec 2.8, 3, 4.10): each creation or removal republishes the operator blocks file at
 * the next version and announces it on `operator.changed`, in the transaction of the change, and is audited in
 * the operator's organisation. A csam pattern reaches the audit log only as its SHA-256 digest.
 */
export class OperatorBlockService {
  private readonly entries: OperatorFileEntries<OperatorBlockRecord, OperatorBlock>;

  constructor(private readonly deps: OperatorBlockDependencies) {
    this.entries = new OperatorFileEntries(
      {
        file: 'operator_blocks',
        list: 'operator-blocks',
        noun: 'operator block',
        target: 'admin/operator-blocks',
        actions: { created: 'admin.operator_block_created', removed: 'admin.operator_block_removed' },
        entries: (tx) => tx.operator.blocks,
        view: operatorBlockView,
        auditDetails: (block) => ({
          ...(block.reasonCode === 'csam'
            ? { pattern_sha256: deps.keyedHash.sha256(block.pattern) }
            : { pattern: block.pattern }),
          reason_code: block.reasonCode,
          public_ref: block.publicRef,
          pops: block.pops,
          jurisdictions: block.jurisdictions,
          expires_at: block.expiresAt?.toISOString() ?? null,
        }),
        duplicate: blockExists,
      },
      deps,
    );
  }

  list(query: OperatorEntryQuery): Promise<OperatorBlockList> {
    return this.entries.list(query);
  }

  async create(request: OperatorBlockCreate, actor: OperatorActor): Promise<OperatorBlockChange> {
    const now = this.deps.clock.now();
    const expiresAt = request.expires_at == null ? null : new Date(request.expires_at);
    if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
      throw validationFailed([{ field: 'expires_at', message: 'must be in the future' }]);
    }
    const record: OperatorBlockRecord = {
      id: this.deps.random.uuid(),
      pattern: request.pattern,
      reasonCode: request.reason_code,
      publicRef: request.public_ref ?? '',
      note: request.note ?? '',
      pops: request.pops ?? [],
      jurisdictions: request.jurisdictions ?? [],
      expiresAt,
      createdBy: actor.actor,
      createdAt: now,
      removedBy: null,
      removedAt: null,
      expiredAt: null,
    };
    return this.entries.add(record, actor, now);
  }

  remove(id: string, actor: OperatorActor): Promise<OperatorBlockChange> {
    return this.entries.remove(id, actor);
  }
}
