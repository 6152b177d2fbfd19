import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  type ClickHouseColumnarStore,
  ClickHouseEdgeLogWriter,
  ClickHouseQueryLogReader,
  createColumnarStore,
  createPostgresDatabase,
  type PostgresDatabase,
} from '@svc/adapters';
import { traced } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingTracer, spans } from '../../support/recording-tracer.js';

/** A value bound as a query parameter: it must appear in no span. */
const SECRET_PARAMETER = 'parameter-value-never-in-a-span';

function spansNamed(name: string) {
  return spans.filter((span) => span.name === name);
}

function attributeValues(): string[] {
  return spans.flatMap((span) => Object.values(span.attributes).map(String));
}

/**
 * Storage calls traced (issue 10): with an SDK registered, each PostgreSQL query (pool queries and
 * transactions alike) and each ClickHouse read and batch insert is a client span carrying `db.system` and
 * `db.operation`, ended when the call settles, marked as an error when it fails, and never carrying a
 * parameter value.
 */
describe('storage calls in client spans', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-spans-'));
  let database: PostgresDatabase;
  let store: ClickHouseColumnarStore;

  beforeAll(async () => {
    trace.setGlobalTracerProvider({ getTracer: () => recordingTracer });
    database = await createPostgresDatabase({ dataDir: join(dataDir, 'pg') }, { tracer: traced });
    store = await createColumnarStore({ dataDir });
    await store.migrate();
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await store?.close();
    trace.disable();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a pool query a postgresql span with the statement kind and no parameter value', async () => {
    const before = spansNamed('postgresql SELECT').length;
    const answer = await database.pool.query<{ echoed: string }>('SELECT $1::text AS echoed', [
      SECRET_PARAMETER,
    ]);
    expect(answer.rows).toEqual([{ echoed: SECRET_PARAMETER }]);
    const selects = spansNamed('postgresql SELECT');
    expect(selects).toHaveLength(before + 1);
    expect(selects.at(-1)).toMatchObject({
      ended: true,
      kind: 2,
      attributes: { 'db.system': 'postgresql', 'db.operation': 'SELECT' },
    });
    expect(attributeValues().some((value) => value.includes(SECRET_PARAMETER))).toBe(false);
  });

  it('traces each statement of a transaction run on a checked-out connection', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TEMPORARY TABLE traced_probe (value text)');
      await client.query('INSERT INTO traced_probe (value) VALUES ($1)', [SECRET_PARAMETER]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    for (const name of ['postgresql BEGIN', 'postgresql CREATE', 'postgresql INSERT', 'postgresql COMMIT']) {
      expect(spansNamed(name).at(-1)?.ended, name).toBe(true);
    }
    expect(spansNamed('postgresql INSERT').at(-1)?.attributes).toEqual({
      'db.system': 'postgresql',
      'db.operation': 'INSERT',
    });
  });

  it('marks a failing query as an error and still hands the error to the caller', async () => {
    await expect(database.pool.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    expect(spansNamed('postgresql SELECT').at(-1)?.status?.code).toBe(2);
  });

  it('makes ClickHouse batch inserts and reads client spans', async () => {
    const writer = new ClickHouseEdgeLogWriter(async () => store, traced);
    await writer.writeHourlyTotals([
      { profileId: 'a1b2c3', hour: new Date('2026-11-20T10:00:00Z'), status: 'allowed', count: 3 },
    ]);
    expect(spansNamed('clickhouse INSERT').at(-1)).toMatchObject({
      ended: true,
      attributes: { 'db.system': 'clickhouse', 'db.operation': 'INSERT' },
    });
    const reader = new ClickHouseQueryLogReader(async () => store.reads, store.kind, undefined, traced);
    const rows = await reader.rows(
      {
        shape: 'search',
        profileId: 'a1b2c3',
        range: { from: new Date(0), to: new Date('2100-01-01T00:00:00Z') },
        filters: {
          devices: [],
          statuses: [],
          qname: SECRET_PARAMETER,
          qnameMatch: 'substring',
          qtypes: [],
          lists: [],
          clientIp: null,
        },
        limit: 10,
        bucketSeconds: 0,
        position: null,
      },
      10,
    );
    expect(rows).toEqual([]);
    expect(spansNamed('clickhouse SELECT').at(-1)).toMatchObject({
      ended: true,
      attributes: { 'db.system': 'clickhouse', 'db.operation': 'SELECT' },
    });
    expect(attributeValues().some((value) => value.includes(SECRET_PARAMETER))).toBe(false);
  });
});
