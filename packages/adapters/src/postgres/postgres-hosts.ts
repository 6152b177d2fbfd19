import pg from 'pg';

/** One host of a PostgreSQL URL. */
interface PostgresHost {
  host: string;
  port: number;
}

/**
 * A PostgreSQL URL in libpq's form, with one host or several (`postgres://user@h1:5432,h2:5432/db`), and
 * `target_session_attrs` (`any`, the default, or `read-write`). node-postgres reads one host only, so the hosts
 * are taken out here and each connection is pointed at one of them.
 */
export interface PostgresHosts {
  hosts: PostgresHost[];
  targetSessionAttrs: 'any' | 'read-write';
  /** The URL with the first host and without `target_session_attrs`: credentials, database and options. */
  base: string;
}

/** Why `url` is not a PostgreSQL URL this server can use, or undefined when it is. */
export function postgresUrlProblem(url: string): string | undefined {
  try {
    parsePostgresHosts(url);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Splits a libpq URL into its hosts; throws with a message naming what is wrong. */
export function parsePostgresHosts(url: string): PostgresHosts {
  const match = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/.exec(url);
  if (match === null) throw new Error('must be a URL with scheme postgres or postgresql');
  const [, scheme, authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const credentials = at < 0 ? '' : authority.slice(0, at + 1);
  const hostList = at < 0 ? authority : authority.slice(at + 1);
  const hosts = hostList.split(',').map((entry): PostgresHost => {
    const parsed = URL.canParse(`${scheme}${entry}`) ? new URL(`${scheme}${entry}`) : undefined;
    if (parsed === undefined || parsed.hostname === '')
      throw new Error(`names a host that is not one: ${entry}`);
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 5432) };
  });
  const first = hosts[0];
  const base = new URL(`${scheme}${credentials}${hostList.split(',')[0]}${rest}`);
  const attrs = base.searchParams.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write')
    throw new Error(`target_session_attrs must be any or read-write, not ${attrs}`);
  base.searchParams.delete('target_session_attrs');
  if (first === undefined) throw new Error('names no host');
  return { hosts, targetSessionAttrs: attrs, base: base.toString() };
}

/**
 * No host of the list can take the connection (all down, or only standbys while a promotion is under way). Its
 * SQLSTATE is libpq's for a connection that could not be made, so callers treat it as the database being out
 * of reach (503 with Retry-After), not as a fault of the server.
 */
class NoPostgresHostError extends Error {
  readonly code = '08001';
  override readonly name = 'NoPostgresHostError';
}

/** The URL of one of the hosts. */
function urlOfHost(url: PostgresHosts, host: PostgresHost): string {
  const single = new URL(url.base);
  single.hostname = host.host.includes(':') ? `[${host.host}]` : host.host;
  single.port = String(host.port);
  return single.toString();
}

/** The host the next connection goes to, found by asking each host in order, kept until a connection fails. */
class HostLocator {
  private current: Promise<PostgresHost> | undefined;

  constructor(private readonly url: PostgresHosts) {}

  /** The host a new connection should use. */
  target(): Promise<PostgresHost> {
    this.current ??= this.find();
    const found = this.current;
    // A search that found nothing is not kept: the next connection searches again.
    found.catch(() => {
      if (this.current === found) this.current = undefined;
    });
    return found;
  }

  /** Forgets `host` as the target (its connection failed or was lost): the next connection searches. */
  forget(host: PostgresHost): void {
    const current = this.current;
    void current?.then(
      (kept) => {
        if (this.current === current && kept.host === host.host && kept.port === host.port)
          this.current = undefined;
      },
      () => undefined,
    );
  }

  private async find(): Promise<PostgresHost> {
    const reasons: string[] = [];
    for (const host of this.url.hosts) {
      // A connection string's host wins over `host`: the probe gets a URL of its own host.
      const probe = new pg.Client({
        connectionString: urlOfHost(this.url, host),
        connectionTimeoutMillis: 2_000,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        if (this.url.targetSessionAttrs === 'any') return host;
        const { rows } = await probe.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
        if (rows[0]?.standby === false) return host;
        reasons.push(`${host.host}:${host.port} is a standby`);
      } catch (error) {
        reasons.push(`${host.host}:${host.port}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
    throw new NoPostgresHostError(
      `no ${this.url.targetSessionAttrs === 'read-write' ? 'writable ' : ''}PostgreSQL host answers (${reasons.join('; ')})`,
    );
  }
}

/**
 * A `pg.Client` class for a pool on several hosts: each new connection goes to the host the locator holds,
 * found by trying the hosts in order (with `read-write`, the first not in recovery), so a promoted standby is
 * found without a restart. A connection that fails to open or is lost makes the next one search again.
 */
export function failoverClientClass(url: PostgresHosts): typeof pg.Client {
  const locator = new HostLocator(url);
  return class FailoverClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | undefined {
      const connected = this.connectToTarget();
      if (callback === undefined) return connected;
      // The pool connects with a callback and reads a falsy first argument as success.
      connected.then(
        () => (callback as (error: Error | null) => void)(null),
        (error: Error) => callback(error),
      );
      return undefined;
    }

    private async connectToTarget(): Promise<pg.Client> {
      const target = await locator.target();
      // The socket goes to `host` and `port` when the client connects; credentials and database are shared.
      this.host = target.host;
      this.port = target.port;
      // A connection lost unexpectedly (the server stopped, or was shut down) is an 'error' of the client.
      this.once('error', () => locator.forget(target));
      try {
        return await super.connect();
      } catch (error) {
        locator.forget(target);
        throw error;
      }
    }
  };
}
