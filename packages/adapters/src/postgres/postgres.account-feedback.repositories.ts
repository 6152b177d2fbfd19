import type {
  ClientErrorRecord,
  ClientErrorRepository,
  FeedbackRecord,
  FeedbackRepository,
  PreferencesRepository,
  RecentPage,
  StoredPreferences,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'bigint' };

/** Account preferences on PostgreSQL (0009_preferences_client_errors_feedback.sql). */
export class PostgresPreferencesRepository implements PreferencesRepository {
  constructor(private readonly db: Queryable) {}

  async find(accountId: string): Promise<StoredPreferences> {
    const result = await this.db.query<{ preferences: StoredPreferences }>(
      'SELECT preferences FROM account_preferences WHERE account_id = $1',
      [accountId],
    );
    return result.rows[0]?.preferences ?? {};
  }

  async save(accountId: string, preferences: StoredPreferences, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO account_preferences (account_id, preferences, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET preferences = EXCLUDED.preferences, updated_at = EXCLUDED.updated_at`,
      [accountId, JSON.stringify(preferences), at],
    );
  }
}

/** Dashboard error reports on PostgreSQL; each insert purges reports past retention. */
export class PostgresClientErrorRepository implements ClientErrorRepository {
  constructor(private readonly db: Queryable) {}

  async insert(report: ClientErrorRecord, purgeBefore: Date): Promise<string> {
    await this.db.query('DELETE FROM client_errors WHERE created_at < $1', [purgeBefore]);
    const result = await this.db.query<{ id: string }>(
      `INSERT INTO client_errors (account_id, org_id, actor, message, stack, url, user_agent, dashboard_version,
         sampled_rate, kind, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id::text AS id`,
      [
        report.accountId,
        report.orgId,
        report.actor,
        report.message,
        report.stack,
        report.url,
        report.userAgent,
        report.dashboardVersion,
        report.sampledRate,
        report.kind,
        report.name,
        report.createdAt,
      ],
    );
    return result.rows[0]?.id ?? '';
  }

  async latest(limit: number): Promise<Array<ClientErrorRecord & { id: string }>> {
    const result = await this.db.query<ClientErrorRecord & { id: string }>(
      `SELECT id::text AS id, account_id AS "accountId", org_id AS "orgId", actor, message, stack, url,
         user_agent AS "userAgent", dashboard_version AS "dashboardVersion", sampled_rate AS "sampledRate",
         kind, name, created_at AS "createdAt"
       FROM client_errors ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    );
    return result.rows;
  }

  async page(query: RecentPage): Promise<Array<ClientErrorRecord & { id: string }>> {
    const tail = keysetPage(NEWEST, 2, query);
    const result = await this.db.query<ClientErrorRecord & { id: string }>(
      `SELECT id::text AS id, account_id AS "accountId", org_id AS "orgId", actor, message, stack, url,
         user_agent AS "userAgent", dashboard_version AS "dashboardVersion", sampled_rate AS "sampledRate",
         kind, name, created_at AS "createdAt"
       FROM client_errors
       WHERE created_at >= $1 ${tail.sql}`,
      [query.since, ...tail.values],
    );
    return result.rows;
  }
}

/** Dashboard feedback on PostgreSQL. */
export class PostgresFeedbackRepository implements FeedbackRepository {
  constructor(private readonly db: Queryable) {}

  async insert(feedback: FeedbackRecord): Promise<string> {
    const result = await this.db.query<{ id: string }>(
      `INSERT INTO feedback (account_id, org_id, actor, message, rating, url, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id`,
      [
        feedback.accountId,
        feedback.orgId,
        feedback.actor,
        feedback.message,
        feedback.rating,
        feedback.url,
        feedback.createdAt,
      ],
    );
    return result.rows[0]?.id ?? '';
  }

  async latest(limit: number): Promise<Array<FeedbackRecord & { id: string }>> {
    const result = await this.db.query<FeedbackRecord & { id: string }>(
      `SELECT id::text AS id, account_id AS "accountId", org_id AS "orgId", actor, message, rating, url,
         created_at AS "createdAt"
       FROM feedback ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    );
    return result.rows;
  }

  async page(query: RecentPage): Promise<Array<FeedbackRecord & { id: string }>> {
    const tail = keysetPage(NEWEST, 2, query);
    const result = await this.db.query<FeedbackRecord & { id: string }>(
      `SELECT id::text AS id, account_id AS "accountId", org_id AS "orgId", actor, message, rating, url,
         created_at AS "createdAt"
       FROM feedback
       WHERE created_at >= $1 ${tail.sql}`,
      [query.since, ...tail.values],
    );
    return result.rows;
  }

  async byAccount(accountId: string): Promise<Array<FeedbackRecord & { id: string }>> {
    const result = await this.db.query<FeedbackRecord & { id: string }>(
      `SELECT id::text AS id, account_id AS "accountId", org_id AS "orgId", actor, message, rating, url,
         created_at AS "createdAt"
       FROM feedback WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return result.rows;
  }
}
