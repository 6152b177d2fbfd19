import type { AccountPreferences, AccountPreferencesPatch } from '../../account-feedback.types.js';
import type { Transport } from '../../transport.js';

/** Account preferences, `/v1/auth/me/preferences` (spec 2.2, 4.8); session only. */
export class PreferencesResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/me/preferences: every key, unset ones at their defaults. */
  async get(): Promise<AccountPreferences> {
    return (await this.transport.send<AccountPreferences>({ method: 'GET', path: '/v1/auth/me/preferences' }))
      .data;
  }

  /**
   * PATCH /v1/auth/me/preferences: merges `patch`; throws ApiError 422 validation_failed for unknown keys or
   * a patch that changes nothing. Audited as `account.preferences_updated`.
   */
  async update(patch: AccountPreferencesPatch): Promise<AccountPreferences> {
    return (
      await this.transport.send<AccountPreferences>({
        method: 'PATCH',
        path: '/v1/auth/me/preferences',
        body: patch,
      })
    ).data;
  }
}
