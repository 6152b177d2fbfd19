import type { WebhookEventScope } from '../webhooks/webhook.ports.js';
import type { WebhookEmitDependencies } from '../webhooks/webhook-emit.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { ProfileRecord } from './profile.records.js';

/** The profile's next version: its new fields, the identity and suspension it had, one version up. */
export function nextVersion(
  current: ProfileRecord,
  fields: Omit<ProfileRecord, 'version' | 'updatedAt'>,
  now: Date,
): ProfileRecord {
  return {
    ...fields,
    id: current.id,
    orgId: current.orgId,
    createdAt: current.createdAt,
    suspended: current.suspended,
    version: current.version + 1,
    updatedAt: now,
  };
}

/** Queues profile.created or profile.updated, with the version written, in the write's transaction. */
export function announceProfile(
  tx: WebhookEventScope,
  deps: WebhookEmitDependencies,
  type: 'profile.created' | 'profile.updated',
  record: ProfileRecord,
): Promise<void> {
  return emitWebhookEvent(tx, deps, record.orgId, type, {
    profile_id: record.id,
    name: record.name,
    version: record.version,
  });
}
