import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import type { ProfileService } from '../profiles/profile.service.js';
import { assertWritable } from '../profiles/profile.service.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound, validationFailed } from '../shared/domain-error.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { ListReportRecord, ListReportScope, ListReportStore } from './list-report.ports.js';
import type { ListReport, ListReportCreate } from './list-report.schemas.js';
import { triageDueAt } from './triage-due.js';

/** Reports an account may file in a rolling window (spec section 8: 20 per 24 h per account). */
const LIST_REPORTS_PER_WINDOW = 20;
const LIST_REPORT_WINDOW_MS = 24 * 3_600_000;

/** What the list-report use cases are built from. */
export interface ListReportDependencies {
  uow: ScopedUnitOfWork<ListReportScope>;
  /** Finds the caller's profile (404 for another organisation's). */
  profiles: ProfileService;
  store: ListReportStore;
  random: Random;
  clock: Clock;
  cursors: CursorSealer;
  /**
   * A catalogue list's current version (its newest compilation's, recorded with the report; null before one),
   * or undefined when the catalogue has no such list.
   */
  findList: (listId: number) => Promise<{ version: number | null } | undefined>;
}

/**
 * Seconds until a report may be filed again when `recent` (creation times, newest first) fills the window:
 * until the oldest of the latest {@link LIST_REPORTS_PER_WINDOW} leaves it. Undefined while under the limit.
 */
export function reportRetryAfterSeconds(recent: readonly Date[], now: Date): number | undefined {
  const oldest = recent[LIST_REPORTS_PER_WINDOW - 1];
  if (oldest === undefined) return undefined;
  return Math.max(1, Math.ceil((oldest.getTime() + LIST_REPORT_WINDOW_MS - now.getTime()) / 1000));
}

/**
 * List reports (spec 2.6, 3, 4.5): a member reports a domain a catalogue list gets wrong; the report is
 * recorded open, with the list's compiled version and its triage deadline, for the operators' queue. At most
 * 20 per account in any 24 hours (429 too_many_reports). Reporting changes nothing the edge resolves with, so
 * the profile's version stays; it is still a change to the profile's data, refused while it is suspended.
 */
export class ListReportService {
  constructor(private readonly deps: ListReportDependencies) {}

  /** The public report. */
  view(record: ListReportRecord): ListReport {
    return {
      id: record.id,
      profile_id: record.profileId,
      domain: record.domain,
      list_id: record.listId,
      list_version: record.listVersion,
      kind: record.kind,
      note: record.note,
      status: record.status,
      resolution_note: record.resolutionNote,
      resolved_at: record.resolvedAt?.toISOString() ?? null,
      created_at: record.createdAt.toISOString(),
      triage_due_at: record.triageDueAt.toISOString(),
    };
  }

  /** POST: records an open report by `accountId` on the organisation's profile. */
  async report(
    orgId: string,
    accountId: string,
    profileId: string,
    request: ListReportCreate,
  ): Promise<ListReportRecord> {
    const list = await this.deps.findList(request.list_id);
    if (list === undefined) {
      throw validationFailed([
        { field: 'list_id', message: `${request.list_id} is not a list of GET /v1/lists` },
      ]);
    }
    return this.deps.uow.run(async (tx) => {
      const profile = await tx.profiles.find(orgId, profileId);
      if (profile === null) throw notFound('profile');
      assertWritable(profile);
      const now = this.deps.clock.now();
      const since = new Date(now.getTime() - LIST_REPORT_WINDOW_MS);
      const recent = await tx.listReports.recentByAccount(accountId, since, LIST_REPORTS_PER_WINDOW);
      const retryAfter = reportRetryAfterSeconds(recent, now);
      if (retryAfter !== undefined) {
        throw new DomainError(
          'too_many_reports',
          `An account may file ${LIST_REPORTS_PER_WINDOW} list reports in 24 hours; retry after ${retryAfter} s.`,
          { retryAfter },
        );
      }
      const record: ListReportRecord = {
        id: this.deps.random.uuid(),
        orgId,
        profileId,
        accountId,
        domain: request.domain,
        listId: request.list_id,
        listVersion: list.version,
        kind: request.kind,
        note: request.note ?? '',
        status: 'open',
        resolutionNote: '',
        resolvedAt: null,
        createdAt: now,
        triageDueAt: triageDueAt(now),
      };
      await tx.listReports.insert(record);
      return record;
    });
  }

  /** GET: reports on the profile by any member of the organisation, newest first. */
  async list(
    orgId: string,
    profileId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ reports: ListReportRecord[]; next_cursor: string | null }> {
    await this.deps.profiles.get(orgId, profileId);
    const list = `list-reports:${profileId}`;
    const page = await pageNewestFirst(this.deps.cursors, list, limit, cursor, (keyset) =>
      this.deps.store.list(orgId, profileId, keyset),
    );
    return { reports: page.items, next_cursor: page.nextCursor };
  }
}
