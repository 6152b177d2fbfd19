import type { KeysetPage } from '../pagination/keyset.js';

/** An account as an operator search finds it. */
export interface OperatorAccountRow {
  id: string;
  orgId: string;
  email: string;
  role: string;
  isAdmin: boolean;
  emailVerifiedAt: Date | null;
  createdAt: Date;
  deletionDueAt: Date | null;
}

/** A live (not tombstoned) profile as an operator search finds it. */
export interface OperatorProfileRow {
  id: string;
  orgId: string;
  name: string;
  /** The email of the organisation's oldest owner account, if any. */
  ownerEmail: string | null;
  suspended: boolean;
  createdAt: Date;
}

/**
 * What operators search across every organisation. `text` is lower-cased; it matches an email or name
 * containing it, or equals an id. Rows come newest first (created_at descending, id descending).
 */
export interface OperatorSearchRepository {
  /** Accounts whose email contains `text`, or whose id or organisation id is `text`. */
  accounts(text: string, page: KeysetPage): Promise<OperatorAccountRow[]>;
  /**
   * Live profiles whose name contains `text`, whose id or organisation id is `text`, or of an organisation
   * with an account whose email contains `text`.
   */
  profiles(text: string, page: KeysetPage): Promise<OperatorProfileRow[]>;
}
