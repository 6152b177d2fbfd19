import type { UnitOfWork } from '../outbox/outbox.ports.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.port.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import type { Random } from '../shared/random.port.js';
import type { AccountArchiveCollector } from './account-archive.js';
import type { DataExportRecord } from './data-export.ports.js';
import type { DataExport, DataExportList } from './data-export.schemas.js';
import { type ExportLogReader, profileLogPages, queryLogLine } from './query-log-lines.js';

/** How long a built archive is kept (the spec leaves it open): 7 days, then it is removed. */
export const DATA_EXPORT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a claim keeps other servers off an export; a crashed server's export is retried after it. */
export const DATA_EXPORT_LEASE_MS = 10 * 60 * 1000;
/** Claims of one export before it is given up as failed (a build that keeps failing). */
export const DATA_EXPORT_MAX_ATTEMPTS = 3;

const LIST = 'exports';

/** What data exports are built from. */
export interface DataExportDependencies {
  uow: UnitOfWork;
  clock: Clock;
  random: Random;
  cursors: CursorSealer;
  collector: Pick<AccountArchiveCollector, 'collect'>;
  /** The API's public base URL, for download_url. */
  baseUrl: string;
  /** The columnar store's log reader; none without one (memory storage), and the archive has no log lines. */
  queryLogs?: ExportLogReader | null;
}

/** An archive to send: the export, its bytes as text and the file name offered to the browser. */
export interface DataExportDownload {
  record: DataExportRecord;
  archive: string;
  fileName: string;
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
    const found = await this.deps.uow.run(async (tx) => {
      const record = await tx.exports.find(accountId, id);
      if (record === null) return null;
      return { record, archive: await tx.exports.archive(accountId, id, now) };
    });
    if (found === null) throw notFound('export');
    const status = this.statusOf(found.record);
    if (status === 'expired') throw notFound('export');
    if (status !== 'ready' || found.archive === null) {
      throw new DomainError(
        'export_not_ready',
        status === 'failed'
          ? 'This export could not be built; start a new one.'
          : 'This export is still being prepared; its status turns ready when it can be downloaded.',
      );
    }
    return { record: found.record, archive: found.archive, fileName: `svc-export-${id}.jsonl` };
  }

  /**
   * Builds one pending export: claims it (leased, so no other server builds it meanwhile), collects the
   * account's data and stores the archive. False when no export was waiting. A build that throws, or whose
   * server stopped, is retried after its lease, at most {@link DATA_EXPORT_MAX_ATTEMPTS} times in all, then
   * marked failed; a thrown error is rethrown for the caller to log.
   */
  async buildNext(): Promise<boolean> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.uow.run((tx) =>
      tx.exports.claimPending(now, new Date(now.getTime() + DATA_EXPORT_LEASE_MS)),
    );
    if (claimed === null) return false;
    if (claimed.attempts > DATA_EXPORT_MAX_ATTEMPTS) {
      // Its earlier claims never finished (the server building it stopped each time): give up.
      await this.deps.uow.run((tx) => tx.exports.fail(claimed.id, this.deps.clock.now()));
      return true;
    }
    try {
      const document = await this.deps.collector.collect(claimed.accountId, now);
      const at = this.deps.clock.now();
      if (document === null) {
        await this.deps.uow.run((tx) => tx.exports.fail(claimed.id, at));
        return true;
      }
      const archive = await this.archiveOf(claimed.id, document, now);
      await this.deps.uow.run((tx) =>
        tx.exports.complete(claimed.id, archive, at, new Date(at.getTime() + DATA_EXPORT_RETENTION_MS)),
      );
      return true;
    } catch (error) {
      if (claimed.attempts >= DATA_EXPORT_MAX_ATTEMPTS) {
        await this.deps.uow.run((tx) => tx.exports.fail(claimed.id, this.deps.clock.now()));
      }
      throw error;
    }
  }

  /**
   * The archive as JSON lines, each a record with a `type`: first the account's document (`account_data`:
   * account, organisation, profiles with everything attached, audit log, …), then every stored query of each
   * of its profiles (`query_log`), profile by profile, newest first, read from the columnar store in bounded
   * pages up to the build's start.
   */
  private async archiveOf(exportId: string, document: Record<string, unknown>, now: Date): Promise<string> {
    const lines = [JSON.stringify({ type: 'account_data', export_id: exportId, ...document })];
    const reader = this.deps.queryLogs;
    if (reader !== undefined && reader !== null) {
      for (const profileId of profileIdsOf(document)) {
        for await (const page of profileLogPages(reader, profileId, now)) {
          for (const row of page) lines.push(queryLogLine(row));
        }
      }
    }
    return `${lines.join('\n')}\n`;
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
