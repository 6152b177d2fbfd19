import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { validationFailed } from '../shared/domain-error.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { OperatorEntryScope, SourceBlockRecord } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';
import type { OperatorEntryQuery } from './operator-block.schemas.js';
import { type OperatorEntryKind, OperatorFileEntries } from './operator-file-entries.js';
import type {
  SourceBlock,
  SourceBlockChange,
  SourceBlockCreate,
  SourceBlockList,
} from './source-block.schemas.js';

/** What the source block use cases are built from. */
export interface SourceBlockDependencies {
  uow: ScopedUnitOfWork<OperatorEntryScope>;
  clock: Clock;
  random: Random;
  cursors: CursorSealer;
}

/** The public record of a stored source block (spec 2.9). */
function sourceBlockView(record: SourceBlockRecord): SourceBlock {
  return {
    id: record.id,
    cidr: record.cidr,
    reason: record.reason,
    pops: record.pops,
    jurisdictions: record.jurisdictions,
    expires_at: record.expiresAt.toISOString(),
    created_by: record.createdBy,
    created_at: record.createdAt.toISOString(),
    removed_by: record.removedBy,
    removed_at: record.removedAt?.toISOString() ?? null,
  };
}

/** Source blocks as entries of the operator sources file. */
const SOURCE_BLOCKS: OperatorEntryKind<SourceBlockRecord, SourceBlock> = {
  file: 'operator_sources',
  list: 'source-blocks',
  noun: 'source block',
  target: 'admin/source-blocks',
  actions: { created: 'admin.source_block_created', removed: 'admin.source_block_removed' },
  entries: (tx) => tx.operator.sources,
  view: sourceBlockView,
  auditDetails: (block) => ({
    cidr: block.cidr,
    reason: block.reason,
    pops: block.pops,
    jurisdictions: block.jurisdictions,
    expires_at: block.expiresAt.toISOString(),
  }),
};

/**
 * Abusive-source blocks (spec 2.9, 3, 4.10): each creation or removal republishes the operator sources file at
 * the next version in the transaction of the change, announced on `operator.changed`, and is audited
 * (`admin.source_block_created`, `admin.source_block_removed`) in the operator's organisation.
 */
export class SourceBlockService {
  private readonly entries: OperatorFileEntries<SourceBlockRecord, SourceBlock>;

  constructor(private readonly deps: SourceBlockDependencies) {
    this.entries = new OperatorFileEntries(SOURCE_BLOCKS, deps);
  }

  list(query: OperatorEntryQuery): Promise<SourceBlockList> {
    return this.entries.list(query);
  }

  async create(request: SourceBlockCreate, actor: OperatorActor): Promise<SourceBlockChange> {
    const now = this.deps.clock.now();
    const expiresAt = new Date(request.expires_at);
    if (expiresAt.getTime() <= now.getTime()) {
      throw validationFailed([{ field: 'expires_at', message: 'must be in the future' }]);
    }
    const record: SourceBlockRecord = {
      id: this.deps.random.uuid(),
      cidr: request.cidr,
      reason: request.reason,
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

  remove(id: string, actor: OperatorActor): Promise<SourceBlockChange> {
    return this.entries.remove(id, actor);
  }
}
