import type { KeysetPage } from '../pagination/keyset.js';
import type { ProfileReadRepository } from '../profiles/profile.ports.js';
import type { ListReportKind, ListReportStatus } from './list-report.schemas.js';

/** A list report as stored. */
export interface ListReportRecord {
  id: string;
  orgId: string;
  profileId: string;
  /** The reporting account: the 20-a-day limit counts per account, and the outcome is emailed to it. */
  accountId: string;
  domain: string;
  listId: number;
  listVersion: number | null;
  kind: ListReportKind;
  note: string;
  status: ListReportStatus;
  resolutionNote: string;
  resolvedAt: Date | null;
  createdAt: Date;
  triageDueAt: Date;
}

/** List reports inside a transaction. */
export interface ListReportRepository {
  insert(report: ListReportRecord): Promise<void>;
  /**
   * Creation times of the account's reports created after `since`, newest first, at most `limit`. Holds a
   * per-account lock until the transaction ends, so concurrent reports of one account count one another.
   */
  recentByAccount(accountId: string, since: Date, limit: number): Promise<Date[]>;
  /** Reports on the organisation's profile, newest first, after the keyset position. */
  list(orgId: string, profileId: string, page: KeysetPage): Promise<ListReportRecord[]>;
  /** The operators' triage queue of every organisation: oldest due first (triage_due_at, then created_at, then id, ascending): reports due at the same time (all those filed over a weekend) in the order they were filed. */
  triageQueue(status: ListReportStatus | undefined, page: TriagePage): Promise<ListReportRecord[]>;
  /** A report of any organisation, locked until the transaction ends (operator triage). */
  findForTriage(id: string): Promise<ListReportRecord | null>;
  /** Records an open report's outcome; false when it is no longer open. */
  resolve(id: string, status: 'accepted' | 'rejected', resolutionNote: string, at: Date): Promise<boolean>;
}

/** A page of the triage queue: at most `limit` reports strictly after `after` in oldest-due-first order. */
export interface TriagePage {
  limit: number;
  after: { triageDueAt: Date; createdAt: Date; id: string } | null;
}

/** List report reads outside a transaction. */
export const ListReportStore = Symbol.for('svc.ListReportStore');
export type ListReportStore = Pick<ListReportRepository, 'list'>;

/** What filing a list report uses of a transaction: the reports and the reported profile. */
export interface ListReportScope {
  listReports: Pick<ListReportRepository, 'insert' | 'recentByAccount'>;
  profiles: ProfileReadRepository;
}
