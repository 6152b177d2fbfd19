import type {
  KeysetPage,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookEventType,
  WebhookRecord,
  WebhookRepository,
} from '@svc/domain';
import { type KeysetOrder, keysetPage } from './postgres-keyset-page.js';
import type { Queryable } from './postgres-queryable.js';

interface WebhookSqlRow {
  id: string;
  org_id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabled_reason: 'failing' | null;
  sealed_secret: string;
  sealed_previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface DeliverySqlRow {
  id: string;
  webhook_id: string;
  org_id: string;
  message_id: string;
  event_type: string;
  body: string;
  occurred_at: Date;
  status: WebhookDeliveryStatus;
  attempts: number;
  response_status: number | null;
  duration_ms: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  created_at: Date;
}

const WEBHOOK_COLUMNS =
  'id, org_id, url, description, events, enabled, disabled_reason, sealed_secret, sealed_previous_secret, previous_secret_expires_at, failing_since, created_at, updated_at';
const DELIVERY_COLUMNS =
  'id, webhook_id, org_id, message_id, event_type, body, occurred_at, status, attempts, response_status, duration_ms, last_error, next_attempt_at, last_attempt_at, created_at';
const NEWEST: KeysetOrder<'createdAt'> = { column: 'created_at', field: 'createdAt', idType: 'uuid' };

function webhookOf(row: WebhookSqlRow): WebhookRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    sealedSecret: row.sealed_secret,
    sealedPreviousSecret: row.sealed_previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function deliveryOf(row: DeliverySqlRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    orgId: row.org_id,
    messageId: row.message_id,
    eventType: row.event_type,
    body: row.body,
    occurredAt: row.occurred_at,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    createdAt: row.created_at,
  };
}

function webhookValues(webhook: WebhookRecord): unknown[] {
  return [
    webhook.id,
    webhook.orgId,
    webhook.url,
    webhook.description,
    webhook.events,
    webhook.enabled,
    webhook.disabledReason,
    webhook.sealedSecret,
    webhook.sealedPreviousSecret,
    webhook.previousSecretExpiresAt,
    webhook.failingSince,
    webhook.createdAt,
    webhook.updatedAt,
  ];
}

/**
 * The heads of leasable endpoints: the oldest pending delivery of each enabled endpoint not leased at $1, when
 * it is due; the endpoint rows are locked SKIP LOCKED so two servers never lease the same one.
 */
const CLAIM = `
WITH candidates AS (
  SELECT w.id FROM webhooks w
   WHERE w.enabled AND (w.leased_until IS NULL OR w.leased_until <= $1)
     AND EXISTS (
       SELECT 1 FROM webhook_deliveries d
        WHERE d.id = (SELECT h.id FROM webhook_deliveries h
                       WHERE h.webhook_id = w.id AND h.status = 'pending' ORDER BY h.seq LIMIT 1)
          AND d.next_attempt_at <= $1)
   LIMIT $3
   FOR UPDATE OF w SKIP LOCKED),
leased AS (UPDATE webhooks SET leased_until = $2 WHERE id IN (SELECT id FROM candidates) RETURNING id)
SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
 WHERE d.id IN (SELECT (SELECT h.id FROM webhook_deliveries h
                         WHERE h.webhook_id = leased.id AND h.status = 'pending' ORDER BY h.seq LIMIT 1)
                  FROM leased)`;

/** Webhook endpoints and their deliveries on PostgreSQL (0027_webhooks.sql). */
export class PostgresWebhookRepository implements WebhookRepository {
  constructor(private readonly db: Queryable) {}

  async insert(webhook: WebhookRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      webhookValues(webhook),
    );
  }

  async find(
    orgId: string,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<WebhookRecord | null> {
    const lock = options.forUpdate === true ? ' FOR UPDATE' : '';
    const result = await this.db.query<WebhookSqlRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE org_id = $1 AND id = $2${lock}`,
      [orgId, id],
    );
    const row = result.rows[0];
    return row === undefined ? null : webhookOf(row);
  }

  async findById(id: string): Promise<WebhookRecord | null> {
    const result = await this.db.query<WebhookSqlRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1`,
      [id],
    );
    const row = result.rows[0];
    return row === undefined ? null : webhookOf(row);
  }

  async save(webhook: WebhookRecord): Promise<void> {
    await this.db.query(
      `UPDATE webhooks SET org_id = $2, url = $3, description = $4, events = $5, enabled = $6, disabled_reason = $7,
         sealed_secret = $8, sealed_previous_secret = $9, previous_secret_expires_at = $10, failing_since = $11,
         created_at = $12, updated_at = $13
       WHERE id = $1`,
      webhookValues(webhook),
    );
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    const result = await this.db.query('DELETE FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, id]);
    return (result.rowCount ?? 0) > 0;
  }

  async deleteAll(orgId: string): Promise<void> {
    await this.db.query('DELETE FROM webhooks WHERE org_id = $1', [orgId]);
  }

  async list(orgId: string, page: KeysetPage): Promise<WebhookRecord[]> {
    const tail = keysetPage(NEWEST, 2, page);
    const result = await this.db.query<WebhookSqlRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE org_id = $1 ${tail.sql}`,
      [orgId, ...tail.values],
    );
    return result.rows.map(webhookOf);
  }

  async count(orgId: string): Promise<number> {
    const result = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM webhooks WHERE org_id = $1',
      [orgId],
    );
    return result.rows[0]?.count ?? 0;
  }

  async subscribed(orgId: string, type: WebhookEventType): Promise<boolean> {
    const result = await this.db.query<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM webhooks WHERE org_id = $1 AND enabled AND $2 = ANY(events)) AS found',
      [orgId, type],
    );
    return result.rows[0]?.found === true;
  }

  async enqueue(event: WebhookEvent, deliveryIds: () => string, at: Date, only?: string): Promise<string[]> {
    const targets = await this.db.query<{ id: string }>(
      only === undefined
        ? 'SELECT id FROM webhooks WHERE org_id = $1 AND enabled AND $2 = ANY(events) ORDER BY id'
        : 'SELECT id FROM webhooks WHERE org_id = $1 AND id = $2',
      only === undefined ? [event.orgId, event.type] : [event.orgId, only],
    );
    const ids: string[] = [];
    for (const target of targets.rows) {
      const id = deliveryIds();
      await this.db.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, org_id, message_id, event_type, body, occurred_at, status,
           next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8)`,
        [id, target.id, event.orgId, event.id, event.type, event.body, event.occurredAt, at],
      );
      ids.push(id);
    }
    return ids;
  }

  async findDelivery(orgId: string, webhookId: string, id: string): Promise<WebhookDeliveryRecord | null> {
    const result = await this.db.query<DeliverySqlRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 AND id = $3`,
      [orgId, webhookId, id],
    );
    const row = result.rows[0];
    return row === undefined ? null : deliveryOf(row);
  }

  async listDeliveries(orgId: string, webhookId: string, page: KeysetPage): Promise<WebhookDeliveryRecord[]> {
    const tail = keysetPage(NEWEST, 3, page);
    const result = await this.db.query<DeliverySqlRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 ${tail.sql}`,
      [orgId, webhookId, ...tail.values],
    );
    return result.rows.map(deliveryOf);
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<WebhookDeliveryRecord[]> {
    const result = await this.db.query<DeliverySqlRow>(CLAIM, [now, leaseUntil, limit]);
    return result.rows.map(deliveryOf);
  }

  async recordAttempt(attempt: WebhookAttemptRecord): Promise<void> {
    const status = attempt.succeeded ? 'succeeded' : attempt.nextAttemptAt === null ? 'failed' : 'pending';
    await this.db.query(
      `UPDATE webhook_deliveries
          SET status = $2, attempts = attempts + 1, response_status = $3, duration_ms = $4, last_error = $5,
              next_attempt_at = $6, last_attempt_at = $7
        WHERE id = $1`,
      [
        attempt.deliveryId,
        status,
        attempt.responseStatus,
        attempt.durationMs,
        attempt.error,
        attempt.nextAttemptAt,
        attempt.at,
      ],
    );
    await this.db.query(
      `UPDATE webhooks SET leased_until = NULL,
              failing_since = CASE WHEN $2 THEN NULL ELSE COALESCE(failing_since, $3) END
        WHERE id = $1`,
      [attempt.webhookId, attempt.succeeded, attempt.at],
    );
  }

  async purgeSettled(before: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1 LIMIT $2)`,
      [before, limit],
    );
    return result.rowCount ?? 0;
  }

  async disableFailing(webhookId: string, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE webhooks SET enabled = false, disabled_reason = 'failing', updated_at = $2 WHERE id = $1`,
      [webhookId, at],
    );
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
              last_error = COALESCE(last_error, 'the endpoint was disabled')
        WHERE webhook_id = $1 AND status = 'pending'`,
      [webhookId],
    );
  }
}
