import type { ColumnarStore } from '@svc/domain';
import type { ClickHouseColumnarStore } from './clickhouse.columnar-store.js';
import type { ClickHouseClientSource } from './clickhouse-client-source.port.js';

/**
 * The columnar store opened on first use. Nothing answers from it until query logs and analytics do, and the
 * embedded engine costs memory from the moment it loads, so the server holds this instead of an open store.
 * Pending migrations are applied when it first opens. Until then, `migrate` runs `migrateUnopened` when
 * given (the embedded store's child process, `migrateEmbeddedColumnarStore`); migrations and opening
 * run one at a time, so the child never holds the data path while this process opens it.
 */
export class LazyColumnarStore implements ColumnarStore, ClickHouseClientSource {
  private opening: Promise<ClickHouseColumnarStore> | undefined;
  private migratedOnOpen: Promise<unknown> | undefined;
  /** The chain that serialises migrations with opening. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly openStore: () => Promise<ClickHouseColumnarStore>,
    private readonly migrateUnopened?: () => Promise<string[]>,
  ) {}

  /** True once something opened the store in this process. */
  get isOpen(): boolean {
    return this.opening !== undefined;
  }

  /** The open store with its migrations applied, for the contexts that query logs and analytics. */
  async store(): Promise<ClickHouseColumnarStore> {
    const store = await this.serially(() => this.open());
    this.migratedOnOpen ??= this.serially(() => store.migrate()).catch((error: unknown) => {
      this.migratedOnOpen = undefined;
      throw error;
    });
    await this.migratedOnOpen;
    return store;
  }

  async migrate(): Promise<string[]> {
    return this.serially(async () => {
      if (this.opening === undefined && this.migrateUnopened !== undefined) return this.migrateUnopened();
      const applied = (await this.open()).migrate();
      if (this.migratedOnOpen === undefined) {
        this.migratedOnOpen = applied;
        // A failed migration (a ClickHouse server down at start) is tried again on first use, not kept.
        applied.catch(() => {
          if (this.migratedOnOpen === applied) this.migratedOnOpen = undefined;
        });
      }
      return applied;
    });
  }

  async ping(): Promise<boolean> {
    return (await this.store()).ping();
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    this.migratedOnOpen = undefined;
    if (opening !== undefined)
      await opening.then(
        (store) => store.close(),
        () => undefined,
      );
  }

  private open(): Promise<ClickHouseColumnarStore> {
    this.opening ??= this.openStore().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
