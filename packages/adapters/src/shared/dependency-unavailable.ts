/**
 * Recognises the errors of a storage engine or service this server depends on being out of reach (a
 * PostgreSQL server restarting, ClickHouse down): they answer 503 (code `internal`, with Retry-After), a
 * condition the client can retry, rather than 500, which says the server is broken.
 */

/** Socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is not there to answer: class 08 (connection exception),
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down), too_many_connections,
 * and read_only_sql_transaction: a write that reached a standby or a primary demoted under its connection,
 * which during a failover means there is no writable host yet (issue 35).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300', '25006'].includes(code);
}

/** node-postgres reports a connection lost mid-query or a pool connect time-out without a code. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
];

function isUnavailableItself(error: object): boolean {
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || isUnavailableSqlState(code))) return true;
  const message = 'message' in error ? error.message : undefined;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error`, its causes, or the errors it aggregates say a dependency is out of reach. */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  if (isUnavailableItself(error)) return true;
  if ('cause' in error && isDependencyUnavailable(error.cause, depth + 1)) return true;
  return (
    error instanceof AggregateError && error.errors.some((inner) => isDependencyUnavailable(inner, depth + 1))
  );
}
