import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { AccountArchiveCollector } from './account-archive.js';
import { ArchiveChunkWriter, DataExportClaimLost } from './archive-chunk-writer.js';
import type {
  DataExportClaim,
  DataExportRecord,
  DataExportScope,
  RunningDigest,
} from './data-export.ports.js';
import type { DataExport, DataExportList } from './data-export.schemas.js';
import { type ExportLogReader, profileLogPages, queryLogLine } from './query-log-lines.js';

/** How long a built archive is kept (the spec leaves it open): 7 days, then it is removed. */
const DATA_EXPORT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a claim keeps other servers off an export; a crashed server's export is retried after it. */
export const DATA_EXPORT_LEASE_MS = 10 * 60 * 1000;
/** Claims of one export before it is given up as failed (a build that keeps failing). */
export const DATA_EXPORT_MAX_ATTEMPTS = 3;
/**
 * Bytes per stored chunk of an archive: the build holds at most one chunk (plus one page of log rows), the
 * download one chunk at a time, whatever the archive's size.
 */
export const DATA_EXPORT_CHUNK_BYTES = 1024 * 1024;

const LIST = 'exports';

/** What data exports are built from. */
export interface DataExportDependencies {
  uow: ScopedUnitOfWork<DataExportScope>;
  clock: Clock;
  random: Random;
  cursors: CursorSealer;
  collector: Pick<AccountArchiveCollector, 'collect'>;
  /** The API's public base URL, for download_url. */
  baseUrl: string;
  /** The columnar store's log reader; none without one (memory storage), and the archive has no log lines. */
  queryLogs?: ExportLogReader | null;
  /** A fresh SHA-256 for each archive, fed as its chunks are written. */
  archiveDigest: () => RunningDigest;
  /** Bytes per stored chunk; {@link DATA_EXPORT_CHUNK_BYTES} unless set (tests set small ones). */
  chunkBytes?: number;
}

/**
 * An archive to send: the export, its size and SHA-256 (hex), the file name offered to the browser, and its
 * bytes, each chunk read from the store only when the previous one was taken.
 */
export interface DataExportDownload {
  record: DataExportRecord;
  sizeBytes: number;
  sha256: string;
  fileName: string;
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * GDPR data exports (ROUTES.md "Sign-in and account"): one pending export per account at a time, built in the
 * background by {@link buildNext}, downloadable for {@link DATA_EXPORT_RETENTION_MS}, then expired and its
 * archive removed. Every read is bound to the account: another account's export is 404.
 */
export class DataExportService {
  constructor(private readonly deps: DataExportDependencies) {}

  /** The public export; a ready export past its expiry reads as expired even before the job removed it. */
  view(record: DataExportRecord): DataExport {
    const status = this.statusOf(record);
    return {
      id: record.id,
      status,
      created_at: record.createdAt.toISOString(),
      completed_at: record.completedAt?.toISOString() ?? null,
      expires_at: record.expiresAt?.toISOString() ?? null,
      size_bytes: status === 'ready' ? record.sizeBytes : null,
      ...(status === 'ready'
        ? { download_url: `${this.deps.baseUrl}/v1/auth/me/exports/${record.id}/download` }
        : {}),
    };
  }

  /** POST /v1/auth/me/exports: a pending export; 409 export_in_progress while another is pending. */
  async start(account: { id: string; orgId: string }): Promise<DataExportRecord> {
    const record: DataExportRecord = {
      id: this.deps.random.uuid(),
      accountId: account.id,
      orgId: account.orgId,
      status: 'pending',
      createdAt: this.deps.clock.now(),
      completedAt: null,
      expiresAt: null,
      sizeBytes: null,
      sha256: null,
      chunkCount: null,
      attempts: 0,
    };
    const created = await this.deps.uow.run((tx) => tx.exports.create(record));
    if (!created) {
      throw new DomainError(
        'export_in_progress',
        'An export of this account is being prepared; wait until it is ready before starting another.',
      );
    }
    return record;
  }

  /** GET /v1/auth/me/exports: newest first. */
  async list(accountId: string, limit: number, cursor: string | undefined): Promise<DataExportList> {
    const page = await pageNewestFirst(this.deps.cursors, LIST, limit, cursor, (keyset) =>
      this.deps.uow.run((tx) => tx.exports.list(accountId, keyset)),
    );
    return { exports: page.items.map((record) => this.view(record)), next_cursor: page.nextCursor };
  }

  /** GET /v1/auth/me/exports/{id}. */
  async get(accountId: string, id: string): Promise<DataExport> {
    const record = await this.deps.uow.run((tx) => tx.exports.find(accountId, id));
    if (record === null) throw notFound('export');
    return this.view(record);
  }

  /**
   * GET /v1/auth/me/exports/{id}/download: 409 export_not_ready while pending (or when the build failed: it
   * never will be); 404 once expired, as for an export that does not exist (the archive is gone, and spec 7
   * has no code for "gone").
   */
  async download(accountId: string, id: string): Promise<DataExportDownload> {
    const now = this.deps.clock.now();
    const record = await this.deps.uow.run((tx) => tx.exports.find(accountId, id));
    if (record === null) throw notFound('export');
    const status = this.statusOf(record);
    if (status === 'expired') throw notFound('export');
    if (
      status !== 'ready' ||
      record.chunkCount === null ||
      record.sizeBytes === null ||
      record.sha256 === null
    ) {
      throw new DomainError(
        'export_not_ready',
        status === 'failed'
          ? 'This export could not be built; start a new one.'
          : 'This export is still being prepared; its status turns ready when it can be downloaded.',
      );
    }
    return {
      record,
      sizeBytes: record.sizeBytes,
      sha256: record.sha256,
      fileName: `svc-export-${id}.jsonl`,
      chunks: this.chunksOf(accountId, id, record.chunkCount, now),
    };
  }

  /**
   * The archive's chunks in order, each read in a short transaction of its own when asked for: a slow client
   * holds no transaction open. A chunk gone meanwhile (the export expired or the account was erased) ends
   * the download with not_found.
   */
  private async *chunksOf(
    accountId: string,
    id: string,
    count: number,
    now: Date,
  ): AsyncGenerator<Uint8Array> {
    for (let seq = 0; seq < count; seq += 1) {
      const bytes = await this.deps.uow.run((tx) => tx.exports.chunk(accountId, id, seq, now));
      if (bytes === null) throw notFound('export');
      yield bytes;
    }
  }

  /**
   * Builds one pending export: claims it (leased, so no other server builds it meanwhile), collects the
   * account's data and writes the archive chunk by chunk as it is read, each chunk extending the lease; the
   * export turns ready in the transaction that writes the last chunk. False when no export was waiting. A
   * build that throws, or whose server stopped, is retried after its lease (the new attempt replaces the
   * chunks), at most {@link DATA_EXPORT_MAX_ATTEMPTS} times in all, then marked failed; a thrown error is
   * rethrown for the caller to log. A build whose lease lapsed and whose export was claimed again stops.
   */
  async buildNext(): Promise<boolean> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.uow.run((tx) => tx.exports.claimPending(now, this.leaseFromNow()));
    if (claimed === null) return false;
    if (claimed.attempts > DATA_EXPORT_MAX_ATTEMPTS) {
      // Its earlier claims never finished (the server building it stopped each time): give up.
      await this.deps.uow.run((tx) => tx.exports.fail(claimed.id, this.deps.clock.now()));
      return true;
    }
    const claim: DataExportClaim = { id: claimed.id, attempt: claimed.attempts };
    try {
      const document = await this.deps.collector.collect(claimed.accountId, now);
      if (document === null) {
        await this.deps.uow.run((tx) => tx.exports.fail(claimed.id, this.deps.clock.now()));
        return true;
      }
      const writer = new ArchiveChunkWriter(
        claimed.id,
        this.deps.chunkBytes ?? DATA_EXPORT_CHUNK_BYTES,
        this.deps.archiveDigest(),
        (seq, bytes) =>
          this.deps.uow.run((tx) => tx.exports.writeChunk(claim, seq, bytes, this.leaseFromNow())),
      );
      await this.writeArchive(writer, claimed.id, document, now);
      const last = writer.finish();
      const at = this.deps.clock.now();
      const completed = await this.deps.uow.run(async (tx) => {
        const done =
          (await tx.exports.writeChunk(claim, last.seq, last.bytes, this.leaseFromNow())) &&
          (await tx.exports.complete(
            claim,
            last.archive,
            at,
            new Date(at.getTime() + DATA_EXPORT_RETENTION_MS),
          ));
        if (done)
          await emitWebhookEvent(tx, this.deps, claimed.orgId, 'export.ready', { export_id: claimed.id });
        return done;
      });
      if (!completed) throw new DataExportClaimLost(claimed.id);
      return true;
    } catch (error) {
      // Another attempt owns the export now and builds it whole: this one has nothing left to do.
      if (error instanceof DataExportClaimLost) return true;
      if (claimed.attempts >= DATA_EXPORT_MAX_ATTEMPTS) {
        await this.deps.uow.run((tx) => tx.exports.fail(claimed.id, this.deps.clock.now()));
      }
      throw error;
    }
  }

  /**
   * Writes the archive as JSON lines, each a record with a `type`: first the account's document
   * (`account_data`: account, organisation, profiles with everything attached, audit log, …), then every
   * stored query of each of its profiles (`query_log`), profile by profile, newest first, read from the
   * columnar store in bounded pages up to the build's start, each page written before the next is read.
   */
  private async writeArchive(
    writer: ArchiveChunkWriter,
    exportId: string,
    document: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await writer.writeLine(JSON.stringify({ type: 'account_data', export_id: exportId, ...document }));
    const reader = this.deps.queryLogs;
    if (reader === undefined || reader === null) return;
    for (const profileId of profileIdsOf(document)) {
      for await (const page of profileLogPages(reader, profileId, now)) {
        for (const row of page) await writer.writeLine(queryLogLine(row));
      }
    }
  }

  private leaseFromNow(): Date {
    return new Date(this.deps.clock.now().getTime() + DATA_EXPORT_LEASE_MS);
  }

  /** Expires ready exports past their retention and removes their archives; returns how many. */
  async expireDue(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.uow.run((tx) => tx.exports.expireDue(now));
  }

  private statusOf(record: DataExportRecord): DataExport['status'] {
    if (record.status === 'ready' && record.expiresAt !== null && record.expiresAt <= this.deps.clock.now()) {
      return 'expired';
    }
    return record.status;
  }
}

/** The ids of the profiles in an account's document. */
function profileIdsOf(document: Record<string, unknown>): string[] {
  const profiles = document.profiles;
  if (!Array.isArray(profiles)) return [];
  return profiles.flatMap((profile: unknown) =>
    typeof profile === 'object' && profile !== null && 'id' in profile && typeof profile.id === 'string'
      ? [profile.id]
      : [],
  );
}
