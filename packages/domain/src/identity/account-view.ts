import type { AccountRecord } from './identity.records.js';
import type { Account } from './identity.schemas.js';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/** The public account (spec 2.1) of a stored account. */
export function accountView(record: AccountRecord): Account {
  return {
    id: record.id,
    org_id: record.orgId,
    role: record.role,
    email: record.email,
    email_verified_at: iso(record.emailVerifiedAt),
    plan: record.plan,
    mfa: record.mfa,
    created_at: record.createdAt.toISOString(),
    is_admin: record.isAdmin,
    deletion_requested_at: iso(record.deletionRequestedAt),
    deletion_due_at: iso(record.deletionDueAt),
  };
}

/** Emails are compared and stored lower case without surrounding space. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
