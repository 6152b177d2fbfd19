import type { OutboxMessage, ProfileCommitter, ProfileRecord, ProfileSnapshot } from '@svc/domain';
import type pg from 'pg';
import { BatchCoalescer } from './batch-coalescer.js';
import { PostgresProfileRepository } from './postgres.profiles.repository.js';

/** Options of {@link PostgresProfileCommitter}. */
export interface PostgresProfileCommitterOptions {
  /** Called after a commit that published, to wake the outbox relay. */
  onCommit?: () => void;
}

/** Commit statements in flight at once, and profile writes per statement at most (as for profile reads). */
const MAX_IN_FLIGHT = 1;
const MAX_BATCH = 64;

interface Commit {
  next: ProfileRecord;
  publication: OutboxMessage;
}

/**
 * One statement commits a batch of profile writes, each on its own terms: a profile is written only when it is
 * still live at the version its writer read and no other transaction holds its row (SKIP LOCKED: a batch never
 * waits on a lock, so it can neither deadlock with another nor stall behind a long transaction), and its
 * outbox row is inserted only when it was written. The row locks are held until the statement commits, so the
 * next writer of a profile finds the new version and its outbox row gets a later id: publications stay in
 * version order. Concurrent commits coalesce ({@link BatchCoalescer}); two writes of one profile in a batch
 * cannot both win, so only the first is tried.
 */
export class PostgresProfileCommitter implements ProfileCommitter {
  private readonly commits: BatchCoalescer<Commit, boolean>;
  private readonly profiles: PostgresProfileRepository;

  constructor(
    private readonly db: Pick<pg.Pool, 'query'>,
    private readonly options: PostgresProfileCommitterOptions = {},
  ) {
    this.profiles = new PostgresProfileRepository(db);
    this.commits = new BatchCoalescer({
      maxInFlight: MAX_IN_FLIGHT,
      maxBatch: MAX_BATCH,
      runBatch: (batch) => this.commitBatch(batch),
    });
  }

  current(orgId: string, id: string): Promise<ProfileSnapshot | null> {
    return this.profiles.findWithLinkedIps(orgId, id);
  }

  commitIfUnchanged(next: ProfileRecord, publication: OutboxMessage): Promise<boolean> {
    return this.commits.run({ next, publication });
  }

  private async commitBatch(batch: readonly Commit[]): Promise<boolean[]> {
    const first = new Map<string, number>();
    batch.forEach(({ next }, index) => {
      if (!first.has(next.id)) first.set(next.id, index);
    });
    const rows = [...first.values()].map((index) => {
      const { next, publication } = batch[index] as Commit;
      return {
        ord: index,
        org_id: next.orgId,
        id: next.id,
        name: next.name,
        version: next.version,
        security: next.security,
        parental: next.parental,
        settings: next.settings,
        rules: next.rules,
        lists: next.lists,
        schedules: next.schedules,
        bedtime: next.bedtime,
        schedule_assignments: next.scheduleAssignments,
        allowances: next.allowances,
        updated_at: next.updatedAt.toISOString(),
        subject: publication.subject,
        payload: publication.payload,
      };
    });
    const result = await this.db.query<{ id: string }>({
      name: 'profiles.commit-if-unchanged',
      text: `WITH next AS (
               SELECT * FROM jsonb_to_recordset($1::jsonb) AS next (
                 ord integer, org_id uuid, id text, name text, version integer, security jsonb, parental jsonb,
                 settings jsonb, rules jsonb, lists integer[], schedules jsonb,
                 bedtime text, schedule_assignments jsonb, allowances jsonb, updated_at timestamptz, subject text, payload jsonb)
             ),
             target AS (
               SELECT p.id FROM profiles p JOIN next ON p.id = next.id AND p.org_id = next.org_id
               WHERE p.version = next.version - 1 AND p.tombstoned_at IS NULL
               FOR UPDATE OF p SKIP LOCKED
             ),
             saved AS (
               UPDATE profiles p SET name = next.name, version = next.version, security = next.security,
                                     parental = next.parental, settings = next.settings, rules = next.rules,
                                     lists = next.lists, schedules = next.schedules, bedtime = next.bedtime,
                                     schedule_assignments = next.schedule_assignments,
                                     allowances = next.allowances,
                                     updated_at = next.updated_at
               FROM next
               WHERE p.id = next.id AND p.id IN (SELECT id FROM target) AND p.version = next.version - 1
               RETURNING p.id
             ),
             published AS (
               INSERT INTO outbox (subject, payload)
               SELECT next.subject, next.payload FROM next JOIN saved ON saved.id = next.id ORDER BY next.ord
             )
             SELECT id FROM saved`,
      values: [JSON.stringify(rows)],
    });
    const saved = new Set(result.rows.map((row) => row.id));
    if (saved.size > 0) this.options.onCommit?.();
    return batch.map(({ next }, index) => first.get(next.id) === index && saved.has(next.id));
  }
}
