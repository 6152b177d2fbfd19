/**
 * Runs one storage call inside a client span. The runner passes OpenTelemetry's `traced` from
 * `@svc/http-server`; adapters stay free of the tracing SDK and trace nothing when none is given. Attributes
 * name the engine and the statement kind (`db.system`, `db.operation`), never a parameter value.
 */
export type StorageCallTracer = <T>(
  name: string,
  attributes: Readonly<Record<string, string>>,
  work: () => Promise<T>,
) => Promise<T>;

/** The tracer of adapters built without one: the call runs as it is. */
export const untracedStorageCalls: StorageCallTracer = (_name, _attributes, work) => work();

/** The statement kind of a SQL text (`SELECT`, `INSERT`, `BEGIN` …): its first keyword, upper-cased. */
export function sqlOperation(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'OTHER';
}
