import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogPosition } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClickHouseColumnarStore,
  ClickHouseEdgeLogWriter,
  ClickHouseQueryLogEraser,
  ClickHouseQueryLogReader,
  createColumnarStore,
  NewestRowsQueryLogReader,
} from '../src/index.js';
import { logRow, tailQuery } from './support/query-log-rows.js';
import { repeatableRandom } from './support/repeatable-random.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const PROFILES = ['aaaaa1', 'aaaaa2', 'aaaaa3'];

/**
 * The reader that answers tails from the embedded store's newest rows, against the store itself: after
 * every write through the edge writer (new rows, late rows, rows sharing a millisecond, rows past an entry's
 * 100), its answers are the store's, row for row, and an erasure leaves nothing behind.
 */
describe('NewestRowsQueryLogReader on embedded chdb', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-newest-rows-'));
  let store: ClickHouseColumnarStore;

  beforeAll(async () => {
    store = await createColumnarStore({ dataDir, readConnections: 1 });
    await store.migrate();
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers as the store does through writes of every kind, mostly from memory', async () => {
    const writer = new ClickHouseEdgeLogWriter(async () => store);
    const plain = new ClickHouseQueryLogReader(async () => store.reads, 'embedded');
    const cached = new NewestRowsQueryLogReader(plain, async () => store.newestRows);
    const cache = store.newestRows;
    if (cache === undefined) throw new Error('an embedded store keeps the newest rows');
    const random = repeatableRandom(20261124);
    let nextId = 1n;
    let clock = NOW;
    let compared = 0;
    let fromMemory = 0;
    const positions = new Map<string, LogPosition>();
    for (let step = 0; step < 60; step += 1) {
      if (random.float() < 0.4) {
        const profileId = PROFILES[Math.floor(random.float() * PROFILES.length)] as string;
        const count = 1 + Math.floor(random.float() * (step === 10 ? 300 : 40));
        const rows = Array.from({ length: count }, () => {
          const late = random.float() < 0.2;
          // Late rows land anywhere in the last hour; the rest at the clock, several in one millisecond.
          const ts = late
            ? clock - Math.floor(random.float() * 3_600_000)
            : clock + Math.floor(random.float() * 3);
          nextId += 1n + BigInt(Math.floor(random.float() * 2 ** 40));
          return logRow(profileId, ts, nextId);
        });
        await writer.writeRows(rows, 30);
        clock += 5;
        continue;
      }
      for (const profileId of PROFILES) {
        const limit = 1 + Math.floor(random.float() * 100);
        const to = random.float() < 0.7 ? clock + 10 : clock - Math.floor(random.float() * 600_000);
        const position = random.float() < 0.5 ? (positions.get(profileId) ?? null) : null;
        const query = tailQuery(profileId, { to, position });
        if (cache.answer(query, limit) !== undefined) fromMemory += 1;
        const expected = await plain.rows(query, limit);
        const answered = await cached.rows(query, limit);
        expect(answered.map((r) => r.rowId)).toEqual(expected.map((r) => r.rowId));
        expect(answered).toEqual(expected);
        compared += 1;
        const newest = answered[0];
        if (newest !== undefined && random.float() < 0.7)
          positions.set(profileId, { ts: newest.ts.getTime(), rowId: newest.rowId });
      }
    }
    expect(compared).toBeGreaterThan(60);
    expect(fromMemory).toBeGreaterThan(compared / 2);

    await new ClickHouseQueryLogEraser(async () => store).eraseProfiles([PROFILES[0] as string]);
    expect(cache.answer(tailQuery(PROFILES[0] as string, { to: clock + 10 }), 10)).toBeUndefined();
    expect(await cached.rows(tailQuery(PROFILES[0] as string, { to: clock + 10 }), 10)).toEqual([]);
  }, 120_000);
});
