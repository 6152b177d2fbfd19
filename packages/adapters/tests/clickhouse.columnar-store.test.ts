import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouseColumnarStore, clickhouseMigrationFiles, createColumnarStore } from '../src/index.js';

const serverUrl = process.env.CLICKHOUSE_URL;
if (serverUrl === undefined) console.warn('ClickHouse server tests skipped: CLICKHOUSE_URL is not set');

function columnarStoreSuite(
  name: string,
  open: () => Promise<{ store: ClickHouseColumnarStore; dispose(): Promise<void> }>,
  skip = false,
) {
  describe.skipIf(skip)(`ClickHouse columnar store: ${name}`, () => {
    let store: ClickHouseColumnarStore;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      ({ store, dispose } = await open());
    }, 60_000);
    afterAll(async () => dispose());

    it('answers a ping', async () => {
      expect(await store.ping()).toBe(true);
    });

    it('applies every migration once, then none', async () => {
      const ids = (await clickhouseMigrationFiles()).map((file) => file.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(await store.migrate()).toEqual(ids);
      expect(await store.migrate()).toEqual([]);
      const facts = await store.client.query({
        query: 'SELECT value FROM svc_store_facts FINAL WHERE name = {name:String}',
        query_params: { name: 'schema' },
        format: 'JSONEachRow',
      });
      expect(await facts.json()).toEqual([{ value: 'svc' }]);
    });

    it('runs reads side by side: one answers while a long one runs', async () => {
      const finished: string[] = [];
      const read = (label: string, query: string) =>
        store.reads.use(async (client) => {
          await (await client.query({ query, format: 'JSONEachRow' })).text();
          finished.push(label);
        });
      const long = read(
        'long',
        'SELECT sum(sleepEachRow(0.5)) AS slept FROM numbers(4) SETTINGS max_block_size = 1',
      );
      await read('short', 'SELECT 1 AS one');
      await long;
      expect(finished).toEqual(['short', 'long']);
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-chdb-'));
columnarStoreSuite('embedded chdb', async () => {
  const store = await createColumnarStore({ dataDir });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

columnarStoreSuite(
  'ClickHouse server',
  async () => {
    const store = await createColumnarStore({ url: serverUrl, dataDir });
    return { store, dispose: () => store.close() };
  },
  serverUrl === undefined,
);

describe(clickhouseMigrationFiles.name, () => {
  it('splits files on the statement marker and drops comments', async () => {
    const [first] = await clickhouseMigrationFiles();
    expect(first?.statements).toHaveLength(2);
    expect(first?.statements[0]).toMatch(/^CREATE TABLE IF NOT EXISTS svc_store_facts/);
    expect(first?.statements[1]).toMatch(/^INSERT INTO svc_store_facts/);
  });
});
