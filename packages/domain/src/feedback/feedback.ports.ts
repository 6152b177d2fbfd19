/** A dashboard error report as stored (spec 2.10), already scrubbed. */
export interface ClientErrorRecord {
  accountId: string;
  orgId: string;
  /** `account:<id>` or `token:<id>`. */
  actor: string;
  message: string;
  stack: string | null;
  url: string | null;
  userAgent: string | null;
  dashboardVersion: string | null;
  sampledRate: number | null;
  kind: string | null;
  name: string | null;
  createdAt: Date;
}

/** Dashboard error reports, inside a transaction. */
export interface ClientErrorRepository {
  /** Stores the report and deletes reports created before `purgeBefore` (30-day retention); returns its id. */
  insert(report: ClientErrorRecord, purgeBefore: Date): Promise<string>;
  /** The latest reports, newest first (the operator listing builds on it). */
  latest(limit: number): Promise<Array<ClientErrorRecord & { id: string }>>;
  /** Every account's reports since `query.since`, newest first (created_at, then id), for operators. */
  page(query: RecentPage): Promise<Array<ClientErrorRecord & { id: string }>>;
}

/** A newest-first keyset page of operator views: rows created at or after `since`, strictly after `after`. */
export interface RecentPage {
  since: Date;
  /** Position of the last row shown; ids are decimal strings compared as numbers. */
  after: { createdAt: Date; id: string } | null;
  limit: number;
}

/** Dashboard feedback as stored. */
export interface FeedbackRecord {
  accountId: string;
  orgId: string;
  actor: string;
  message: string;
  rating: number | null;
  url: string | null;
  createdAt: Date;
}

/** Dashboard feedback, inside a transaction. */
export interface FeedbackRepository {
  /** Stores the feedback; returns its id. */
  insert(feedback: FeedbackRecord): Promise<string>;
  /** The latest feedback, newest first. */
  latest(limit: number): Promise<Array<FeedbackRecord & { id: string }>>;
  /** Everything the account sent, oldest first (its data export). */
  byAccount(accountId: string): Promise<Array<FeedbackRecord & { id: string }>>;
  /** Every account's feedback since `query.since`, newest first (created_at, then id), for operators. */
  page(query: RecentPage): Promise<Array<FeedbackRecord & { id: string }>>;
}

/** What accepting a dashboard error report uses of a transaction. */
export interface ClientErrorScope {
  clientErrors: Pick<ClientErrorRepository, 'insert'>;
}

/** What accepting feedback uses of a transaction. */
export interface FeedbackScope {
  feedback: Pick<FeedbackRepository, 'insert'>;
}
