import type { AuditSource } from '../audit/audit.ports.js';
import type { Clock } from '../shared/clock.ports.js';
import { validationFailed } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { PreferencesScope, StoredPreferences } from './preferences.ports.js';
import { DEFAULT_PREFERENCES, type Preferences, type PreferencesPatch } from './preferences.schemas.js';

function withDefaults(stored: StoredPreferences): Preferences {
  return { alerts: { node_offline: stored.alerts?.node_offline ?? DEFAULT_PREFERENCES.alerts.node_offline } };
}

/** Reads and merges account preferences; a change is audited as `account.preferences_updated`. */
export class PreferencesService {
  constructor(private readonly deps: { uow: ScopedUnitOfWork<PreferencesScope>; clock: Clock }) {}

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
