import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceCounts, EdgeLogWriter, QueryLogEraser, QueryLogReader } from '@svc/domain';
import { afterAll, describe } from 'vitest';
import {
  type ClickHouseColumnarStore,
  ClickHouseDeviceCounts,
  ClickHouseEdgeLogWriter,
  ClickHouseQueryLogEraser,
  ClickHouseQueryLogReader,
  createColumnarStore,
  MemoryDeviceCounts,
  MemoryEdgeLogWriter,
  MemoryQueryLog,
  MemoryQueryLogEraser,
  MemoryQueryLogReader,
  NewestRowsQueryLogReader,
} from '../../src/index.js';

/** The query-log ports of one columnar store, as the ClickHouse family binds them (memory: their twins). */
export interface QueryLogUnderTest {
  reader: QueryLogReader;
  writer: EdgeLogWriter;
  eraser: QueryLogEraser;
  deviceCounts: DeviceCounts;
}

/** One columnar store a query-log contract runs on. */
export interface ColumnarStorage {
  /** As the contract's title names it: `memory`, `embedded chdb` or `ClickHouse server`. */
  name: string;
  /**
   * The ports on a migrated store. The engines' store is shared by the contracts of a file (one embedded
   * engine per process) and, on a server, with earlier runs: contracts use profile ids of their own.
   */
  open(): Promise<QueryLogUnderTest>;
}

const serverUrl = process.env.CLICKHOUSE_URL;
if (serverUrl === undefined) console.warn('ClickHouse server contracts skipped: CLICKHOUSE_URL is not set');

function onMemory(): QueryLogUnderTest {
  const log = new MemoryQueryLog();
  return {
    reader: new MemoryQueryLogReader(log),
    writer: new MemoryEdgeLogWriter(log),
    eraser: new MemoryQueryLogEraser(log),
    deviceCounts: new MemoryDeviceCounts(log),
  };
}

function onStore(store: ClickHouseColumnarStore): QueryLogUnderTest {
  const opened = async () => store;
  return {
    reader: new NewestRowsQueryLogReader(
      new ClickHouseQueryLogReader(async () => store.reads, store.kind),
      async () => store.newestRows,
    ),
    writer: new ClickHouseEdgeLogWriter(opened),
    eraser: new ClickHouseQueryLogEraser(opened),
    deviceCounts: new ClickHouseDeviceCounts(opened, (error) => {
      throw error;
    }),
  };
}

/** One store per file, opened by the first contract that asks, closed after the file. */
function sharedStore(open: () => Promise<ClickHouseColumnarStore>): () => Promise<QueryLogUnderTest> {
  let opening: Promise<ClickHouseColumnarStore> | undefined;
  afterAll(async () => (await opening)?.close());
  return async () => {
    opening ??= open().then(async (store) => {
      await store.migrate();
      return store;
    });
    return onStore(await opening);
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-columnar-contract-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const STORES: readonly { storage: ColumnarStorage; skip: boolean }[] = [
  { storage: { name: 'memory', open: async () => onMemory() }, skip: false },
  {
    storage: { name: 'embedded chdb', open: sharedStore(() => createColumnarStore({ dataDir })) },
    skip: false,
  },
  {
    storage: {
      name: 'ClickHouse server',
      open: sharedStore(() => createColumnarStore({ url: serverUrl, dataDir })),
    },
    skip: serverUrl === undefined,
  },
];

/**
 * Declares the contract `name` once per columnar store, as `${name}: ${storage.name}`: on the memory twins, on
 * the embedded chdb, and on the ClickHouse server of CLICKHOUSE_URL, skipped when it is not set.
 */
export function describeOnEveryColumnarStore(
  name: string,
  contract: (storage: ColumnarStorage) => void,
): void {
  for (const { storage, skip } of STORES) {
    describe.skipIf(skip)(`${name}: ${storage.name}`, () => contract(storage));
  }
}
