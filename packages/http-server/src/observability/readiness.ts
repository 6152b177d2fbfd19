/** How long a readiness check waits for a store before calling it failing. */
const READINESS_TIMEOUT_MS = 2_000;

/** The state of one dependency as `/readyz` reports it. */
type DependencyState =
  /** Answered a trivial query within the time-out. */
  | 'ok'
  /** Did not answer, or answered with an error, within the time-out. */
  | 'failing'
  /** Not opened in this process yet (the columnar store opens on first use): not probed, not a failure. */
  | 'unopened'
  /** Held in memory (memory storage, in-process bus): nothing to probe. */
  | 'in_process'
  /** Configured, but not probed: the NATS client reconnects on its own and the outbox keeps what waits. */
  | 'configured';

/** What `/readyz` answers. */
export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  /** Why not ready. */
  reason?: 'starting' | 'shutting_down' | 'postgres_failing';
  checks: { postgres: DependencyState; columnar: DependencyState; bus: DependencyState };
}

/** The dependencies readiness looks at, known once the stores are bound. */
export interface ReadinessSources {
  /** Runs a trivial query on the PostgreSQL pool; absent with memory storage. */
  postgres?: () => Promise<void>;
  /** The columnar store: probed only when already open, so a probe never loads the embedded engine. */
  columnar?: { isOpen: () => boolean; ping: () => Promise<boolean> };
  bus: 'nats' | 'in_process';
}

async function within(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      probe().then(
        (answer) => answer !== false,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this server should get traffic. Ready means serving and PostgreSQL answering: every write and every
 * authenticated read needs it. The columnar store and the bus are reported but never make the server unready:
 * without ClickHouse only log queries fail (with a 5xx problem), and without NATS the outbox keeps what it
 * would publish, so taking the server out of the load balancer would only turn a partial outage into a whole one.
 */
export class Readiness {
  private phase: 'starting' | 'serving' | 'shutting_down' = 'starting';
  private sources: ReadinessSources | undefined;

  constructor(private readonly timeoutMs = READINESS_TIMEOUT_MS) {}

  /** The application is built: readiness now follows the dependencies. */
  serving(sources: ReadinessSources): void {
    this.sources = sources;
    if (this.phase === 'starting') this.phase = 'serving';
  }

  /** Shutdown began: not ready from now on, so load balancers stop sending new work. */
  shuttingDown(): void {
    this.phase = 'shutting_down';
  }

  async report(): Promise<ReadinessReport> {
    const sources = this.sources;
    if (sources === undefined || this.phase !== 'serving') {
      return {
        status: 'not_ready',
        reason: this.phase === 'serving' ? 'starting' : this.phase,
        checks: { postgres: 'unopened', columnar: 'unopened', bus: 'unopened' },
      };
    }
    const [postgres, columnar] = await Promise.all([
      sources.postgres === undefined
        ? Promise.resolve<DependencyState>('in_process')
        : within(sources.postgres, this.timeoutMs).then((ok): DependencyState => (ok ? 'ok' : 'failing')),
      sources.columnar === undefined
        ? Promise.resolve<DependencyState>('in_process')
        : !sources.columnar.isOpen()
          ? Promise.resolve<DependencyState>('unopened')
          : within(sources.columnar.ping, this.timeoutMs).then(
              (ok): DependencyState => (ok ? 'ok' : 'failing'),
            ),
    ]);
    const checks = { postgres, columnar, bus: sources.bus === 'nats' ? 'configured' : 'in_process' } as const;
    // A shutdown that began while the checks ran wins: the answer must not say ready once draining started.
    if (this.phase !== 'serving') return { status: 'not_ready', reason: 'shutting_down', checks };
    if (postgres === 'failing') return { status: 'not_ready', reason: 'postgres_failing', checks };
    return { status: 'ready', checks };
  }
}
