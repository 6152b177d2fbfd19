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
}
