import type { UnitOfWork } from '../outbox/outbox.ports.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.port.js';
import { notFound, validationFailed } from '../shared/domain-error.js';
import type { Random } from '../shared/random.port.js';
import type { SourceBlockRecord } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';
import type { OperatorEntryQuery } from './operator-block.schemas.js';
import { republishOperatorFile } from './operator-file-publisher.js';
import type {
  SourceBlock,
  SourceBlockChange,
  SourceBlockCreate,
  SourceBlockList,
} from './source-block.schemas.js';

/** What the source block use cases are built from. */
export interface SourceBlockDependencies {
  uow: UnitOfWork;
  clock: Clock;
  random: Random;
  cursors: CursorSealer;
}

const LIST = 'source-blocks';

/** The public record of a stored source block (spec 2.9). */
export function sourceBlockView(record: SourceBlockRecord): SourceBlock {
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

/**
 * Abusive-source blocks (spec 2.9, 3, 4.10): each creation or removal republishes the operator sources file at
 * the next version in the transaction of the change, announced on `operator.changed`, and is audited
 * (`admin.source_block_created`, `admin.source_block_removed`) in the operator's organisation.
 */
export class SourceBlockService {
  constructor(private readonly deps: SourceBlockDependencies) {}

  async list(query: OperatorEntryQuery): Promise<SourceBlockList> {
    const now = this.deps.clock.now();
    const list = `${LIST}:${query.status ?? 'all'}`;
    const page = await pageNewestFirst(this.deps.cursors, list, query.limit, query.cursor, (keyset) =>
      this.deps.uow.run((tx) => tx.operator.sources.list(query.status, now, keyset)),
    );
    return { blocks: page.items.map(sourceBlockView), next_cursor: page.nextCursor };
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
    return this.deps.uow.run(async (tx) => {
      const current = await tx.operator.lockFile('operator_sources');
      await tx.operator.sources.markExpired(now);
      await tx.operator.sources.insert(record);
      const fileVersion = await republishOperatorFile(tx, 'operator_sources', current, now);
      await this.audit(tx, 'admin.source_block_created', record, actor, now, fileVersion);
      return { block: sourceBlockView(record), file_version: fileVersion };
    });
  }

  async remove(id: string, actor: OperatorActor): Promise<SourceBlockChange> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const current = await tx.operator.lockFile('operator_sources');
      const removed = await tx.operator.sources.remove(id, actor.actor, now);
      if (removed === null) throw notFound('source block');
      const fileVersion = await republishOperatorFile(tx, 'operator_sources', current, now);
      await this.audit(tx, 'admin.source_block_removed', removed, actor, now, fileVersion);
      return { block: sourceBlockView(removed), file_version: fileVersion };
    });
  }

  private async audit(
    tx: Parameters<Parameters<UnitOfWork['run']>[0]>[0],
    action: 'admin.source_block_created' | 'admin.source_block_removed',
    block: SourceBlockRecord,
    actor: OperatorActor,
    at: Date,
    fileVersion: number,
  ): Promise<void> {
    await tx.audit.record({
      ...actor,
      action,
      target: `admin/source-blocks/${block.id}`,
      details: {
        cidr: block.cidr,
        reason: block.reason,
        pops: block.pops,
        jurisdictions: block.jurisdictions,
        expires_at: block.expiresAt.toISOString(),
        file_version: fileVersion,
      },
      at,
    });
  }
}
