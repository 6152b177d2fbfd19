import type { TransactionScope, UnitOfWork } from '../outbox/outbox.ports.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.port.js';
import { DomainError, notFound, validationFailed } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.port.js';
import type { Random } from '../shared/random.port.js';
import type { OperatorBlockRecord } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';
import type {
  OperatorBlock,
  OperatorBlockChange,
  OperatorBlockCreate,
  OperatorBlockList,
  OperatorEntryQuery,
} from './operator-block.schemas.js';
import { republishOperatorFile } from './operator-file-publisher.js';

/** What the operator block use cases are built from. */
export interface OperatorBlockDependencies {
  uow: UnitOfWork;
  clock: Clock;
  random: Random;
  cursors: CursorSealer;
  /** For the SHA-256 digest of csam patterns in the audit log. */
  keyedHash: KeyedHash;
}

const LIST = 'operator-blocks';

/** The public record of a stored block (spec 2.8). */
export function operatorBlockView(record: OperatorBlockRecord): OperatorBlock {
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
  constructor(private readonly deps: OperatorBlockDependencies) {}

  async list(query: OperatorEntryQuery): Promise<OperatorBlockList> {
    const now = this.deps.clock.now();
    const list = `${LIST}:${query.status ?? 'all'}`;
    const page = await pageNewestFirst(this.deps.cursors, list, query.limit, query.cursor, (keyset) =>
      this.deps.uow.run((tx) => tx.operator.blocks.list(query.status, now, keyset)),
    );
    return { blocks: page.items.map(operatorBlockView), next_cursor: page.nextCursor };
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
    return this.deps.uow.run(async (tx) => {
      const current = await tx.operator.lockFile('operator_blocks');
      // An entry whose expiry passed no longer holds its pattern: mark it before the uniqueness check.
      await tx.operator.blocks.markExpired(now);
      if ((await tx.operator.blocks.insert(record)) === 'exists') throw blockExists();
      const fileVersion = await republishOperatorFile(tx, 'operator_blocks', current, now);
      await this.audit(tx, 'admin.operator_block_created', record, actor, now, fileVersion);
      return { block: operatorBlockView(record), file_version: fileVersion };
    });
  }

  async remove(id: string, actor: OperatorActor): Promise<OperatorBlockChange> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const current = await tx.operator.lockFile('operator_blocks');
      const removed = await tx.operator.blocks.remove(id, actor.actor, now);
      if (removed === null) throw notFound('operator block');
      const fileVersion = await republishOperatorFile(tx, 'operator_blocks', current, now);
      await this.audit(tx, 'admin.operator_block_removed', removed, actor, now, fileVersion);
      return { block: operatorBlockView(removed), file_version: fileVersion };
    });
  }

  private async audit(
    tx: TransactionScope,
    action: 'admin.operator_block_created' | 'admin.operator_block_removed',
    block: OperatorBlockRecord,
    actor: OperatorActor,
    at: Date,
    fileVersion: number,
  ): Promise<void> {
    const pattern =
      block.reasonCode === 'csam'
        ? { pattern_sha256: this.deps.keyedHash.sha256(block.pattern) }
        : { pattern: block.pattern };
    await tx.audit.record({
      ...actor,
      action,
      target: `admin/operator-blocks/${block.id}`,
      details: {
        ...pattern,
        reason_code: block.reasonCode,
        public_ref: block.publicRef,
        pops: block.pops,
        jurisdictions: block.jurisdictions,
        expires_at: block.expiresAt?.toISOString() ?? null,
        file_version: fileVersion,
      },
      at,
    });
  }
}
