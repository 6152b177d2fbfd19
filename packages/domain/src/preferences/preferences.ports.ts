import type { AuditWriter } from '../audit/audit.ports.js';

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

/** What the preference use cases use of a transaction. */
export interface PreferencesScope {
  preferences: PreferencesRepository;
  /** A change is audited as `account.preferences_updated`. */
  audit: AuditWriter;
}
