import type { AuditAction } from './audit-actions.js';

export * from './audit-actions.js';

/** Who made a change and from where, as the request told it: what every audited use case is given. */
export interface AuditSource {
  /** `account:<id>` for a session, `token:<id>` for an API token (the principal's actor). */
  actor: string;
  clientIp?: string;
  requestId?: string;
}

/**
 * Who the actors of audit entries are, for people reading the log: the email of the account behind
 * `account:<id>` or `token:<id>`. Resolved at read time (the log itself never changes), and only within
 * `orgId` when one is given, so that an organisation's log never reveals the address of an account of another
 * organisation (an operator acting on its behalf); `null` for operators' cross-organisation view.
 */
export interface AuditActorEmails {
  emailsOf(actors: readonly string[], orgId: string | null): Promise<ReadonlyMap<string, string>>;
}

/** One audit entry to append. */
export interface AuditEntry extends AuditSource {
  /** The organisation whose audit log holds the entry. */
  orgId: string;
  action: AuditAction;
  /** What was changed, as a path-like reference (`profiles/k3x9q2/devices/tv`). */
  target: string;
  /** What changed; JSON-serialisable, never a secret. */
  details: Record<string, unknown>;
  at: Date;
}

/** An audit entry as stored: appended in order, never changed. */
export interface AuditEntryRecord {
  /** Position in the log (increasing in append order), as a decimal string. */
  id: string;
  orgId: string;
  actor: string;
  action: AuditAction;
  target: string;
  details: Record<string, unknown>;
  at: Date;
  clientIp: string | null;
  requestId: string | null;
}

/**
 * Appends audit entries inside the caller's transaction, so an entry exists exactly when the change it
 * describes committed.
 */
export interface AuditWriter {
  record(entry: AuditEntry): Promise<void>;
}

/** The part of a transaction an audited use case uses: entries appended only if the change commits. */
export interface AuditScope {
  audit: AuditWriter;
}

/** Audit log reads outside a transaction. */
export const AuditLogStore = Symbol.for('svc.AuditLogStore');
export interface AuditLogStore {
  /** The organisation's latest entries, newest first. */
  recent(orgId: string, limit: number): Promise<AuditEntryRecord[]>;
  /** One page of the organisation's entries, newest first (at, then id, descending), of `actions` when given. */
  page(orgId: string, query: AuditPageQuery): Promise<AuditEntryRecord[]>;
  /**
   * One page of every organisation's entries (operators only, GET /v1/admin/audit), newest first, of
   * `orgId` when given.
   */
  pageAcrossOrganisations(orgId: string | null, query: AuditPageQuery): Promise<AuditEntryRecord[]>;
}

/** A keyset page of the audit log: at most `limit` entries strictly after `after`, newest first. */
export interface AuditPageQuery {
  limit: number;
  after: { at: Date; id: string } | null;
  /** Only these actions; empty means all. */
  actions: readonly AuditAction[];
}
