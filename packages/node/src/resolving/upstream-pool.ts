import { exchangeWithUpstream, type UpstreamAnswer, type UpstreamServer } from './upstream-exchange.js';

/** Settings of an {@link UpstreamPool}; each has a default. */
export interface UpstreamPoolOptions {
  /** Time one query may take over all the servers it tries (default 2,500 ms). */
  timeoutMs?: number;
  /** Time one server has to answer before the next is tried (default 1,000 ms). */
  attemptTimeoutMs?: number;
  /** How long a server that failed is tried only after the healthy ones (default 10 s). */
  cooldownMs?: number;
  /** The clock (Unix ms; default `Date.now`). */
  now?: () => number;
}

/** What the pool knows of one server, for logs and the metrics to come. */
export interface UpstreamHealth {
  server: string;
  healthy: boolean;
  answered: number;
  failed: number;
  /** Latency of its last answer, in milliseconds. */
  lastLatencyMs: number | null;
}

/** An upstream's answer and whether it came over an authenticated transport (DoT), which alone may carry AD. */
export interface PooledAnswer extends UpstreamAnswer {
  authenticated: boolean;
  server: string;
}

interface ServerState {
  server: UpstreamServer;
  label: string;
  /** Until when (Unix ms) the server is tried only after the healthy ones; 0 when healthy. */
  downUntil: number;
  answered: number;
  failed: number;
  lastLatencyMs: number | null;
}

/**
 * The upstream servers, asked in the configured order with failover: the first healthy server is asked, and
 * when it fails or does not answer in time the next one, until one answers or the query's time is up. A server
 * that failed is marked down for a cooldown, during which it is tried only after the others (so it is not
 * waited for on every query); its next answer makes it healthy again. Health is learnt from real queries (the
 * active checks and a "fastest" strategy come with a later part of issue 41).
 */
export class UpstreamPool {
  private states: ServerState[];
  private readonly timeoutMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(servers: readonly UpstreamServer[], options: UpstreamPoolOptions = {}) {
    this.states = servers.map(stateOf);
    this.timeoutMs = options.timeoutMs ?? 2_500;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 1_000;
    this.cooldownMs = options.cooldownMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Replaces the servers (a reloaded configuration); those that stay keep their health. */
  replace(servers: readonly UpstreamServer[]): void {
    const known = new Map(this.states.map((state) => [state.label, state]));
    this.states = servers.map((server) => known.get(labelOf(server)) ?? stateOf(server));
  }

  /** Asks the servers in turn; rejects with the last failure when none answered in time. */
  async ask(query: Buffer): Promise<PooledAnswer> {
    const deadline = this.now() + this.timeoutMs;
    let lastError: Error = new Error('no upstream server is configured');
    for (const state of this.inOrder()) {
      const remaining = deadline - this.now();
      if (remaining <= 0) break;
      const started = this.now();
      try {
        const answer = await exchangeWithUpstream(
          state.server,
          query,
          started + Math.min(remaining, this.attemptTimeoutMs),
        );
        state.answered += 1;
        state.downUntil = 0;
        state.lastLatencyMs = this.now() - started;
        return { ...answer, authenticated: state.server.transport === 'tls', server: state.label };
      } catch (error) {
        state.failed += 1;
        state.downUntil = this.now() + this.cooldownMs;
        lastError = error instanceof Error ? error : new Error(String(error));
      }
    }
    throw lastError;
  }

  get health(): UpstreamHealth[] {
    const at = this.now();
    return this.states.map((state) => ({
      server: state.label,
      healthy: state.downUntil <= at,
      answered: state.answered,
      failed: state.failed,
      lastLatencyMs: state.lastLatencyMs,
    }));
  }

  /** Healthy servers in the configured order, then those cooling down, the soonest back first. */
  private inOrder(): ServerState[] {
    const at = this.now();
    const healthy = this.states.filter((state) => state.downUntil <= at);
    const down = this.states
      .filter((state) => state.downUntil > at)
      .sort((left, right) => left.downUntil - right.downUntil);
    return [...healthy, ...down];
  }
}

function stateOf(server: UpstreamServer): ServerState {
  return { server, label: labelOf(server), downUntil: 0, answered: 0, failed: 0, lastLatencyMs: null };
}

function labelOf(server: UpstreamServer): string {
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  return `${server.transport}://${host}:${server.port}`;
}
