import type { ClickHouseClient } from '@clickhouse/client';

/**
 * The connections log and analytics reads run on. A ClickHouse server runs the queries of one HTTP client side
 * by side, so it needs one; embedded chdb runs one query at a time per connection, so the embedded store opens
 * several on its one data directory (they share the engine and its data) and each read takes the connection
 * with the fewest reads in flight, so that no read waits behind a long one on the same connection.
 */
export class ClickHouseReadPool {
  private readonly slots: { client: ClickHouseClient; inFlight: number }[];

  constructor(clients: readonly ClickHouseClient[]) {
    if (clients.length === 0) throw new Error('a read pool needs at least one connection');
    this.slots = clients.map((client) => ({ client, inFlight: 0 }));
  }

  /** A pool of the one client of a server (or of a test's recording client). */
  static of(client: ClickHouseClient): ClickHouseReadPool {
    return new ClickHouseReadPool([client]);
  }

  /** Every connection, for closing them and for tests that need to occupy the store. */
  get connections(): readonly ClickHouseClient[] {
    return this.slots.map((slot) => slot.client);
  }

  /** Runs `work` on the connection with the fewest reads in flight (the first of equals). */
  async use<T>(work: (client: ClickHouseClient) => Promise<T>): Promise<T> {
    const slot = this.slots.reduce((least, next) => (next.inFlight < least.inFlight ? next : least));
    slot.inFlight += 1;
    try {
      return await work(slot.client);
    } finally {
      slot.inFlight -= 1;
    }
  }
}
