import type { AuditAction } from '../audit/audit.ports.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { type DomainError, notFound } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { OperatorEntryRepository, OperatorEntryScope, OperatorFileName } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';
import type { OperatorEntryQuery } from './operator-block.schemas.js';
import { republishOperatorFile } from './operator-file-publisher.js';

/** What every operator file entry has: its id and creation time (the list's keyset). */
interface OperatorEntry {
  id: string;
  createdAt: Date;
}

/** One kind of entry of an operator file (operator blocks, source blocks) and how it is shown and audited. */
export interface OperatorEntryKind<Entry extends OperatorEntry, View> {
  file: OperatorFileName;
  /** Names the kind's cursors, so that one list's cursor is refused by another. */
  list: string;
  /** What a missing entry is called in the 404 (`operator block`). */
  noun: string;
  /** The audit target's prefix (`admin/operator-blocks`), the entry's id following. */
  target: string;
  actions: { created: AuditAction; removed: AuditAction };
  entries(tx: OperatorEntryScope): OperatorEntryRepository<Entry>;
  view(entry: Entry): View;
  auditDetails(entry: Entry): Record<string, unknown>;
  /** The error when the store refuses a new entry as a duplicate of a live one. */
  duplicate?: () => DomainError;
}

/** What the operator file entries are built from. */
export interface OperatorFileEntriesDependencies {
  uow: ScopedUnitOfWork<OperatorEntryScope>;
  clock: Clock;
  cursors: CursorSealer;
}

/**
 * The use cases every operator file entry shares (spec 2.8, 2.9, 3, 4.10): a newest-first list by status, and
 * additions and removals that each republish the file at the next version in the transaction of the change
 * (under the file's lock, so versions are gapless on every server) and are audited in the operator's
 * organisation with that version.
 */
export class OperatorFileEntries<Entry extends OperatorEntry, View> {
  constructor(
    private readonly kind: OperatorEntryKind<Entry, View>,
    private readonly deps: OperatorFileEntriesDependencies,
  ) {}

  async list(query: OperatorEntryQuery): Promise<{ blocks: View[]; next_cursor: string | null }> {
    const now = this.deps.clock.now();
    const list = `${this.kind.list}:${query.status ?? 'all'}`;
    const page = await pageNewestFirst(this.deps.cursors, list, query.limit, query.cursor, (keyset) =>
      this.deps.uow.run((tx) => this.kind.entries(tx).list(query.status, now, keyset)),
    );
    return { blocks: page.items.map((entry) => this.kind.view(entry)), next_cursor: page.nextCursor };
  }

  async add(entry: Entry, actor: OperatorActor, now: Date): Promise<{ block: View; file_version: number }> {
    return this.deps.uow.run(async (tx) => {
      const current = await tx.operator.lockFile(this.kind.file);
      // An entry whose expiry passed no longer holds its place: mark it before the store's uniqueness check.
      await this.kind.entries(tx).markExpired(now);
      if ((await this.kind.entries(tx).insert(entry)) === 'exists') {
        throw this.kind.duplicate?.() ?? new Error(`${this.kind.noun} ${entry.id} is stored already`);
      }
      return this.changed(tx, this.kind.actions.created, entry, actor, current, now);
    });
  }

  async remove(id: string, actor: OperatorActor): Promise<{ block: View; file_version: number }> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const current = await tx.operator.lockFile(this.kind.file);
      const removed = await this.kind.entries(tx).remove(id, actor.actor, now);
      if (removed === null) throw notFound(this.kind.noun);
      return this.changed(tx, this.kind.actions.removed, removed, actor, current, now);
    });
  }

  /** Republishes the file and audits the change; answers the entry and the file's new version. */
  private async changed(
    tx: OperatorEntryScope,
    action: AuditAction,
    entry: Entry,
    actor: OperatorActor,
    current: number,
    now: Date,
  ): Promise<{ block: View; file_version: number }> {
    const fileVersion = await republishOperatorFile(tx, this.kind.file, current, now);
    await tx.audit.record({
      ...actor,
      action,
      target: `${this.kind.target}/${entry.id}`,
      details: { ...this.kind.auditDetails(entry), file_version: fileVersion },
      at: now,
    });
    return { block: this.kind.view(entry), file_version: fileVersion };
  }
}
