/**
 * A store that readiness (`GET /readyz`) may probe, bound by the adapter family that opens it. A probe never
 * opens what is not open yet: the embedded columnar engine loads on first use, not because a load balancer
 * asked whether the server is ready.
 */
export const ReadinessProbe = Symbol.for('svc.ReadinessProbe');
export interface ReadinessProbe {
  /** Which dependency of the readiness report this probes. */
  readonly dependency: 'postgres' | 'columnar';
  /** False while nothing in this process opened the store: it is then reported unopened, not probed. */
  isOpen(): boolean;
  /** True when the store answered a trivial query; false or a rejection when it did not. */
  ping(): Promise<boolean>;
}
