/**
 * The columnar store of query logs and analytics (ClickHouse server, or embedded chdb). The foundation needs
 * only its connection and schema; the query-log context adds its operations.
 */
export const ColumnarStore = Symbol.for('svc.ColumnarStore');
export interface ColumnarStore {
  /** Applies pending schema migrations; returns the ids applied now. */
  migrate(): Promise<string[]>;
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
