/**
 * Background work of the API server (the schedulers), contributed to the container: every binding of this
 * token is started once the application is built and stopped at shutdown, before the stores close. The CLI's
 * storage commands share the use cases but run none of them.
 */
export const ServerJob = Symbol.for('svc.ServerJob');
export interface ServerJob {
  /** What the Lifecycle calls it when stopping it fails. */
  readonly name: string;
  start(): void;
  /** Stops it and waits for a run in flight. */
  stop(): Promise<void>;
}
