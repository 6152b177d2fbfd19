import type { ClickHouseClient } from '@clickhouse/client';

/**
 * The connections log and analytics reads run on. A ClickHouse server runs the queries of one HTTP client side
 * by side, so it needs one; embedded chdb runs one query at a time per connection, so the embedded store opens
 * several on its one data directory (they share the engine and its data) and each read takes the connection
 * with the fewest reads in flight, so that no read waits behind a long one on the same connection.
 */
export class ClickHouseReadPool {
  private readonly inFlight: number[];

  constructor(private readonly clients: readonly ClickHouseClient[]) {
    if (clients.length === 0) throw new Error('a read pool needs at least one connection');
    this.inFlight = clients.map(() => 0);
  }

  /** A pool of the one client of a server (or of a test's recording client). */
  static of(client: ClickHouseClient): ClickHouseReadPool {
    return new ClickHouseReadPool([client]);
  }

  /** How many connections reads are spread over. */
  get size(): number {
    return this.clients.length;
  }

  /** Every connection, for closing them and for tests that need to occupy the store. */
  get connections(): readonly ClickHouseClient[] {
    return this.clients;
  }

  /** Runs `work` on the connection with the fewest reads in flight (the first of equals). */
  async use<T>(work: (client: ClickHouseClient) => Promise<T>): Promise<T> {
    let chosen = 0;
    for (let index = 1; index < this.inFlight.length; index += 1) {
      if ((this.inFlight[index] ?? 0) < (this.inFlight[chosen] ?? 0)) chosen = index;
    }
    const client = this.clients[chosen] as ClickHouseClient;
    this.inFlight[chosen] = (this.inFlight[chosen] ?? 0) + 1;
    try {
      return await work(client);
    } finally {
      this.inFlight[chosen] = (this.inFlight[chosen] ?? 1) - 1;
    }
  }
}
