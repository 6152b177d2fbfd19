/** Service identifiers of the composition that are not domain ports. */

/** The {@link Lifecycle} that closes what the container opened. */
export const LifecycleToken = Symbol.for('svc.Lifecycle');
/** The PostgreSQL pool (a server or the embedded PGlite) of the engine-backed stores. */
export const PostgresToken = Symbol.for('svc.PostgresDatabase');
