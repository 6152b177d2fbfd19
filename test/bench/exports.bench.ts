import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClickHouseEdgeLogWriter,
  ClickHouseQueryLogReader,
  CryptoRandom,
  createColumnarStore,
  createPostgresDatabase,
  HmacKeyedHash,
  migratePostgres,
  PostgresUnitOfWork,
  postgresTransactionRepositories,
  SystemClock,
  sha256RunningDigest,
} from '@svc/adapters';
import { CursorSealer, DATA_EXPORT_CHUNK_BYTES, DataExportService } from '@svc/domain';
import { EdgeTrafficSimulation, type SimulatedProfile, servingPops } from '@svc/edge-simulator';
import { createScratchDatabase, postgresServerUnavailable } from '@svc/testing/postgres';

/**
 * Part of `npm run bench` (issue 5, "streamed, never built fully in memory"):
 * `node --conditions=source --import tsx test/bench/exports.bench.ts [--large] [--rows N]`.
 * Fills an embedded chdb with 100,000 simulated query-log rows of one profile (1,000,000 with --large, about
 * 500 MB of archive; --rows sets another count),
 * then builds that profile's data export the way the server's job does (log rows read 1,000 at a time, the
 * archive written in 1 MiB chunks to PostgreSQL: the local server when it answers, else PGlite) and reads it
 * back chunk by chunk as the download route does. Prints each phase's throughput and how far the process's
 * resident memory and V8 heap rose above where they stood before the phase: a streamed archive keeps that
 * rise near a chunk plus a page of rows (and the engines' own caches), whatever the archive's size.
 */
const args = process.argv.slice(2);
const rowsFlag = args.indexOf('--rows');
const ROWS = rowsFlag >= 0 ? Number(args[rowsFlag + 1]) : args.includes('--large') ? 1_000_000 : 100_000;
const PROFILE = 'export-bench-profile';
const INSERT_ROWS = 250_000;
const MiB = 1024 * 1024;

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

const profile: SimulatedProfile = {
  id: PROFILE,
  settings: {
    block_mode: 'nxdomain',
    logs_enabled: true,
    log_client_ip: true,
    log_domains: true,
    log_destination: 'cloud',
    retention_days: 90,
  },
  rules: { deny: ['tiktok.com'], allow: [], rewrites: [] },
  lists: [{ id: 1, name: 'StevenBlack unified hosts' }],
  suspended: false,
};

/** Samples resident memory and heap while `work` runs; the peaks above the values at its start. */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ result: T; ms: number; rss: number; heap: number }> {
  const start = process.memoryUsage();
  let rss = start.rss;
  let heap = start.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const began = performance.now();
  try {
    const result = await work();
    sample();
    return { result, ms: performance.now() - began, rss: rss - start.rss, heap: heap - start.heapUsed };
  } finally {
    clearInterval(timer);
  }
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

const dataDir = mkdtempSync(join(tmpdir(), 'svc-exports-bench-'));
const serverDown = await postgresServerUnavailable();
const scratch = serverDown === undefined ? await createScratchDatabase() : undefined;
const database = await createPostgresDatabase(
  scratch === undefined ? { dataDir: join(dataDir, 'pglite') } : { url: scratch.url },
);
const store = await createColumnarStore({ dataDir: join(dataDir, 'chdb') });
try {
  await migratePostgres(database.pool);
  await store.migrate();
  console.log(
    `svc exports bench: ${ROWS.toLocaleString('en')} rows of one profile, chunks of ${mib(DATA_EXPORT_CHUNK_BYTES)}, ` +
      `PostgreSQL ${scratch === undefined ? `PGlite (server: ${serverDown})` : 'server'}, embedded chdb; load average ${loadavg()[0]?.toFixed(2)}`,
  );

  const now = new Date();
  const writer = new ClickHouseEdgeLogWriter(async () => store);
  const simulation = new EdgeTrafficSimulation(
    profile,
    { queries: ROWS, days: 2, devices: 5, seed: 1, now, batchSize: INSERT_ROWS },
    sha256,
    servingPops(),
  );
  const loadStarted = performance.now();
  for (const batch of simulation.batches()) await writer.writeRows(batch, 90);
  console.log(`simulated rows into chdb: ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

  const uow = new PostgresUnitOfWork(database.pool, { repositories: postgresTransactionRepositories });
  const account = { id: randomUUID(), orgId: randomUUID() };
  await uow.run((tx) =>
    tx.identity.accounts.createWithOrganisation(
      { id: account.orgId, name: 'bench', createdAt: now },
      {
        ...account,
        role: 'owner',
        email: 'export-bench@example.test',
        emailVerifiedAt: now,
        passwordHash: null,
        plan: 'free',
        mfa: false,
        isAdmin: false,
        createdAt: now,
        deletionRequestedAt: null,
        deletionDueAt: null,
      },
    ),
  );
  const reader = new ClickHouseQueryLogReader(async () => store.reads, 'embedded');
  let readingMs = 0;
  const exports = new DataExportService({
    uow,
    clock: new SystemClock(),
    random: new CryptoRandom(),
    cursors: new CursorSealer(new HmacKeyedHash('exports-bench-secret-long-enough-for-hkdf')),
    collector: { collect: async () => ({ profiles: [{ id: PROFILE }] }) },
    baseUrl: 'http://127.0.0.1',
    queryLogs: {
      rows: async (query, limit) => {
        const began = performance.now();
        const rows = await reader.rows(query, limit);
        readingMs += performance.now() - began;
        return rows;
      },
    },
    archiveDigest: sha256RunningDigest,
  });
  const started = await exports.start(account);

  const build = await measured(() => exports.buildNext());
  const record = await uow.run((tx) => tx.exports.find(account.id, started.id));
  const size = record?.sizeBytes ?? 0;
  if (!build.result || record?.status !== 'ready')
    throw new Error(`the export was not built: ${record?.status}`);
  console.log(
    `build: ${mib(size)} in ${record.chunkCount} chunks, ${(build.ms / 1000).toFixed(1)} s = ` +
      `${Math.round(ROWS / (build.ms / 1000)).toLocaleString('en')} rows/s, ${mib(size / (build.ms / 1000))}/s; ` +
      `reading log pages ${(readingMs / 1000).toFixed(1)} s of it; peak rise: RSS ${mib(build.rss)}, V8 heap ${mib(build.heap)}`,
  );

  const download = await measured(async () => {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of (await exports.download(account.id, started.id)).chunks) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    return { bytes, sha256: hash.digest('hex') };
  });
  if (download.result.bytes !== size || download.result.sha256 !== record.sha256) {
    throw new Error('the archive read back differs from the one built');
  }
  console.log(
    `download (chunks read as the route reads them): ${(download.ms / 1000).toFixed(1)} s = ` +
      `${mib(size / (download.ms / 1000))}/s; peak rise: RSS ${mib(download.rss)}, V8 heap ${mib(download.heap)}`,
  );
} finally {
  await store.close();
  await database.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
