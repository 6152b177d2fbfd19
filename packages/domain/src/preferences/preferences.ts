import { z } from 'zod';
import type { AuditSource } from '../audit/audit.ports.js';
import type { UnitOfWork } from '../outbox/outbox.ports.js';
import type { Clock } from '../shared/clock.port.js';
import { validationFailed } from '../shared/domain-error.js';

/** Account preferences as answered (spec 2.2): every key present, unset keys at their defaults. */
export const Preferences = z
  .object({
    alerts: z.object({
      node_offline: z.boolean().meta({ description: 'Email when a node goes offline; default true.' }),
    }),
  })
  .meta({ id: 'Preferences', description: 'Account preferences (spec 2.2); unset keys take defaults.' });
export type Preferences = z.infer<typeof Preferences>;

/** A JSON merge of preferences (spec 4.8): omitted keys keep their value; unknown keys are refused. */
export const PreferencesPatch = z
  .strictObject({
    alerts: z.strictObject({ node_offline: z.boolean().optional() }).optional(),
  })
  .meta({ id: 'PreferencesPatch', description: 'JSON merge object; omitted keys keep their value.' });
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

/** Stored preferences: only the keys an account has set (the rest take the defaults when read). */
export interface StoredPreferences {
  alerts?: { node_offline?: boolean };
}

/** Preferences of accounts, inside a transaction. */
export interface PreferencesRepository {
  /** The keys the account has set; empty when none. */
  find(accountId: string): Promise<StoredPreferences>;
  save(accountId: string, preferences: StoredPreferences, at: Date): Promise<void>;
}

/** Defaults of unset keys (spec 2.2). */
export const DEFAULT_PREFERENCES: Preferences = { alerts: { node_offline: true } };

function withDefaults(stored: StoredPreferences): Preferences {
  return { alerts: { node_offline: stored.alerts?.node_offline ?? DEFAULT_PREFERENCES.alerts.node_offline } };
}

/** Reads and merges account preferences; a change is audited as `account.preferences_updated`. */
export class PreferencesService {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {}

  /** GET /v1/auth/me/preferences. */
  async get(accountId: string): Promise<Preferences> {
    return this.deps.uow.run(async (tx) => withDefaults(await tx.preferences.find(accountId)));
  }

  /**
   * PATCH /v1/auth/me/preferences: merges `patch`; a body that changes nothing (empty, or every value already
   * in effect) is 422 validation_failed, so a client learns its request did nothing.
   */
  async update(
    account: { id: string; orgId: string },
    patch: PreferencesPatch,
    source: AuditSource,
  ): Promise<Preferences> {
    return this.deps.uow.run(async (tx) => {
      const stored = await tx.preferences.find(account.id);
      const before = withDefaults(stored);
      const next: StoredPreferences = { ...stored, alerts: { ...stored.alerts } };
      const changed: Record<string, unknown> = {};
      const nodeOffline = patch.alerts?.node_offline;
      if (nodeOffline !== undefined && nodeOffline !== before.alerts.node_offline) {
        next.alerts = { ...next.alerts, node_offline: nodeOffline };
        changed['alerts.node_offline'] = nodeOffline;
      }
      if (Object.keys(changed).length === 0) {
        throw validationFailed(
          [{ field: 'alerts', message: 'the request changes no preference' }],
          'The request changes nothing.',
        );
      }
      const at = this.deps.clock.now();
      await tx.preferences.save(account.id, next, at);
      await tx.audit.record({
        ...source,
        orgId: account.orgId,
        action: 'account.preferences_updated',
        target: `accounts/${account.id}/preferences`,
        details: { changed },
        at,
      });
      return withDefaults(next);
    });
  }
}
