import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clickhouseMigrationFiles,
  createColumnarStore,
  LazyColumnarStore,
  migrateEmbeddedColumnarStore,
} from '../src/index.js';

describe(LazyColumnarStore.name, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-chdb-lazy-'));
  let opened = 0;
  const sut = new LazyColumnarStore(
    () => {
      opened += 1;
      return createColumnarStore({ dataDir });
    },
    () => migrateEmbeddedColumnarStore(dataDir),
  );
  afterAll(async () => {
    await sut.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies the migrations in a child process without opening the store here, then finds none pending', async () => {
    const ids = (await clickhouseMigrationFiles()).map((file) => file.id);
    expect(await sut.migrate()).toEqual(ids);
    expect(sut.isOpen).toBe(false);
    expect(opened).toBe(0);
    expect(existsSync(join(dataDir, 'ch', 'svc-applied-migrations.json'))).toBe(true);
    expect(await sut.migrate()).toEqual([]);
    expect(opened).toBe(0);
  }, 60_000);

  it('opens on first use, once, with the schema the child applied', async () => {
    const [first, second] = await Promise.all([sut.store(), sut.store()]);
    expect(first).toBe(second);
    expect(opened).toBe(1);
    expect(await sut.ping()).toBe(true);
    const facts = await first.client.query({
      query: 'SELECT value FROM svc_store_facts FINAL WHERE name = {name:String}',
      query_params: { name: 'schema' },
      format: 'JSONEachRow',
    });
    expect(await facts.json()).toEqual([{ value: 'svc' }]);
    expect(await sut.migrate()).toEqual([]);
  }, 60_000);
});
