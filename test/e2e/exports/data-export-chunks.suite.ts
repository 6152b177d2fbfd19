import { createHash } from 'node:crypto';
import { type PostgresDatabase, sha256RunningDigest } from '@svc/adapters';
import {
  type AccountArchiveCollector,
  type Clock,
  Clock as ClockToken,
  type CursorSealer,
  DATA_EXPORT_LEASE_MS,
  DataExportService,
  EdgeLogWriter,
  QueryLogReader,
  Random,
  UnitOfWork,
} from '@svc/domain';
import {
  AccountArchiveCollectorToken,
  CursorSealerToken,
  type DataExportScheduler,
  DataExportSchedulerToken,
  PostgresToken,
} from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { recentLogRows } from './recent-log-rows.js';

/** Log rows of the exported profile: about 900 KB of archive, dozens of 16 KiB chunks. */
const ROWS = 2_000;
const CHUNK_BYTES = 16 * 1024;

interface ExportLine {
  type: string;
  export_id?: string;
  profile_id?: string;
  row_id?: string;
  qname?: string;
}

/**
 * Archives stored in chunks and streamed (issue 5: "streamed, never built fully in memory"): a build with a
 * small chunk size spreads the archive over many chunks, the download sends them back byte for byte with the
 * Content-Length and digest of the whole, and a build that stalled past its lease is replaced whole by the
 * next attempt, without a line twice.
 */
export function runDataExportChunkSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`data export archives in chunks on ${storage}`, () => {
    let api: ApiHarness;
    let reader: QueryLogReader;
    let uow: UnitOfWork;
    /** A build like the server's, with `chunkBytes` and the given log reader. */
    let builder: (chunkBytes: number, queryLogs: QueryLogReader['rows']) => DataExportService;
    beforeAll(async () => {
      api = await startApi(storage);
      await (await api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken)).stop();
      reader = await api.container.getAsync<QueryLogReader>(QueryLogReader);
      uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
      const clock = await api.container.getAsync<Clock>(ClockToken);
      const random = await api.container.getAsync<Random>(Random);
      const cursors = await api.container.getAsync<CursorSealer>(CursorSealerToken);
      const collector = await api.container.getAsync<AccountArchiveCollector>(AccountArchiveCollectorToken);
      builder = (chunkBytes, rows) =>
        new DataExportService({
          uow,
          clock,
          random,
          cursors,
          collector,
          baseUrl: api.url,
          queryLogs: { rows },
          archiveDigest: sha256RunningDigest,
          chunkBytes,
        });
    }, 120_000);
    afterAll(async () => {
      await api?.close();
    });

    const session = (owner: TestAccount) => ({ cookie: `svc_session=${owner.cookie}` });
    const ownerWithLogs = async () => {
      const owner = await createAccount(api);
      const created = await send(`${api.url}/v1/profiles`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'Busy' },
      });
      expect(created.status).toBe(201);
      const profileId = (created.json as { id: string }).id;
      const writer = await api.container.getAsync<EdgeLogWriter>(EdgeLogWriter);
      await writer.writeRows(recentLogRows(profileId, ROWS), 30);
      return { owner, profileId };
    };
    const start = async (owner: TestAccount) => {
      const answer = await send(`${api.url}/v1/auth/me/exports`, { method: 'POST', headers: session(owner) });
      expect(answer.status).toBe(202);
      return (answer.json as { export: { id: string } }).export.id;
    };
    const download = async (owner: TestAccount, id: string) => {
      const answer = await send(`${api.url}/v1/auth/me/exports/${id}/download`, { headers: session(owner) });
      expect(answer.status).toBe(200);
      return answer;
    };
    const stored = async (owner: TestAccount, id: string) => {
      const me = await send(`${api.url}/v1/auth/me`, { headers: session(owner) });
      const accountId = (me.json as { account: { id: string } }).account.id;
      const record = await uow.run((tx) => tx.exports.find(accountId, id));
      const chunks: Buffer[] = [];
      for (let seq = 0; seq < (record?.chunkCount ?? 0); seq += 1) {
        const bytes = await uow.run((tx) => tx.exports.chunk(accountId, id, seq, api.clock.now()));
        chunks.push(Buffer.from(bytes ?? new Uint8Array()));
      }
      return { record, bytes: Buffer.concat(chunks) };
    };
    const linesOf = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as ExportLine);

    it('spreads an archive over many chunks and sends it back byte for byte, with Content-Length and digest', async () => {
      const { owner, profileId } = await ownerWithLogs();
      const id = await start(owner);
      expect(await builder(CHUNK_BYTES, (query, limit) => reader.rows(query, limit)).buildNext()).toBe(true);
      const { record, bytes } = await stored(owner, id);
      expect(record).toMatchObject({ status: 'ready', sizeBytes: bytes.length });
      expect(record?.chunkCount).toBe(Math.ceil(bytes.length / CHUNK_BYTES));
      expect(record?.chunkCount).toBeGreaterThan(40);

      const answer = await download(owner, id);
      const body = Buffer.from(answer.text, 'utf8');
      expect(answer.headers['content-length']).toBe(String(bytes.length));
      expect(body.equals(bytes)).toBe(true);
      expect(answer.headers.etag).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
      expect(record?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

      // The same archive built in one chunk (the default 1 MiB) holds the same lines: chunk cuts lose nothing.
      const whole = await start(owner);
      expect(await builder(1024 * 1024, (query, limit) => reader.rows(query, limit)).buildNext()).toBe(true);
      expect((await stored(owner, whole)).record?.chunkCount).toBe(1);
      const [first, ...logs] = linesOf(answer.text);
      const [wholeFirst, ...wholeLogs] = linesOf((await download(owner, whole)).text);
      expect([first?.type, first?.export_id, wholeFirst?.export_id]).toEqual(['account_data', id, whole]);
      expect(logs).toHaveLength(ROWS);
      expect(logs.every((line) => line.type === 'query_log' && line.profile_id === profileId)).toBe(true);
      expect(wholeLogs).toEqual(logs);
    }, 120_000);

    it('rebuilds whole an export whose build stalled past its lease, without a line twice; the stalled build then stops', async () => {
      const { owner } = await ownerWithLogs();
      const id = await start(owner);
      let pages = 0;
      let reachedStall!: () => void;
      const stalled = new Promise<void>((resolve) => {
        reachedStall = resolve;
      });
      let resume!: () => void;
      const resumed = new Promise<void>((resolve) => {
        resume = resolve;
      });
      // The first build writes a page of log lines (several chunks), then hangs as a stopped server would.
      const hanging = builder(CHUNK_BYTES, async (query, limit) => {
        pages += 1;
        if (pages === 2) {
          reachedStall();
          await resumed;
        }
        return reader.rows(query, limit);
      });
      const firstBuild = hanging.buildNext();
      await stalled;
      const next = builder(CHUNK_BYTES * 3, (query, limit) => reader.rows(query, limit));
      // Its lease holds (each chunk written extended it) until it lapses.
      expect(await next.buildNext()).toBe(false);
      api.clock.advance(DATA_EXPORT_LEASE_MS);
      expect(await next.buildNext()).toBe(true);
      resume();
      // The stalled build wakes up, finds its claim taken and stops without writing or failing the export.
      expect(await firstBuild).toBe(true);

      const { record, bytes } = await stored(owner, id);
      expect(record).toMatchObject({ status: 'ready', attempts: 2 });
      const answer = await download(owner, id);
      expect(Buffer.from(answer.text, 'utf8').equals(bytes)).toBe(true);
      expect(answer.headers['content-length']).toBe(String(bytes.length));
      const lines = linesOf(answer.text);
      expect(lines.filter((line) => line.type === 'account_data')).toHaveLength(1);
      const logs = lines.filter((line) => line.type === 'query_log');
      expect(logs).toHaveLength(ROWS);
      expect(new Set(logs.map((line) => line.row_id)).size).toBe(ROWS);
    }, 120_000);

    it('answers 404 not_found as a problem, without the archive’s headers, when its chunks went before the download began', async () => {
      const owner = await createAccount(api);
      const id = await start(owner);
      expect(await builder(CHUNK_BYTES, (query, limit) => reader.rows(query, limit)).buildNext()).toBe(true);
      // As an erasure or the expiry job would, between the status read and the first chunk.
      const { pool } = await api.container.getAsync<PostgresDatabase>(PostgresToken);
      await pool.query('DELETE FROM data_export_chunks WHERE export_id = $1', [id]);
      const answer = await send(`${api.url}/v1/auth/me/exports/${id}/download`, { headers: session(owner) });
      expect(answer.status).toBe(404);
      expect(problemOf(answer).code).toBe('not_found');
      expect(answer.headers['content-disposition']).toBeUndefined();
      expect(answer.headers.etag).toBeUndefined();
    });
  });
}
