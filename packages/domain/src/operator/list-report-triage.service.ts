import type { ListReportRecord } from '../list-reports/list-report.ports.js';
import type { CursorSealer } from '../pagination/pagination.js';
import { pageFrom } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { notFound, validationFailed } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import { listReportOutcomeMail } from './list-report-outcome.mail.js';
import type {
  TriageDecision,
  TriagedListReport,
  TriageQuery,
  TriageQueue,
} from './list-report-triage.schemas.js';
import type { ListReportTriageScope } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';

/** What list-report triage is built from. */
export interface ListReportTriageDependencies {
  uow: ScopedUnitOfWork<ListReportTriageScope>;
  clock: Clock;
  cursors: CursorSealer;
}

/** The operators' view of a stored report. */
function triagedListReportView(record: ListReportRecord): TriagedListReport {
  return {
    id: record.id,
    org_id: record.orgId,
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

/**
 * List-report triage (spec 3, 4.13; ROUTES.md "Operator"): the queue of every organisation's reports, oldest
 * due first; accepting or rejecting an open report emails the reporter the outcome and the note, and is audited
 * in the operator's organisation. An accepted report is only a candidate for review of the curated guard list or
 * the gate overrides: nothing here changes a list.
 */
export class ListReportTriageService {
  constructor(private readonly deps: ListReportTriageDependencies) {}

  async queue(query: TriageQuery): Promise<TriageQueue> {
    const list = `triage:${query.status}`;
    const position = query.cursor === undefined ? null : this.deps.cursors.open(list, query.cursor);
    // A cursor of a server before the creation-time tie-break has no `c`: it resumes at the start of its due time.
    const after =
      position === null
        ? null
        : {
            triageDueAt: new Date(String(position.t)),
            createdAt: new Date(position.c === undefined ? 0 : String(position.c)),
            id: String(position.i),
          };
    const rows = await this.deps.uow.run((tx) =>
      tx.listReports.triageQueue(query.status, { limit: query.limit + 1, after }),
    );
    const page = pageFrom(rows, query.limit, this.deps.cursors, list, (row) => ({
      t: row.triageDueAt.toISOString(),
      c: row.createdAt.toISOString(),
      i: row.id,
    }));
    return { reports: page.items.map(triagedListReportView), next_cursor: page.nextCursor };
  }

  async decide(id: string, decision: TriageDecision, actor: OperatorActor): Promise<TriagedListReport> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const report = await tx.listReports.findForTriage(id);
      if (report === null) throw notFound('list report');
      if (!(await tx.listReports.resolve(id, decision.status, decision.resolution_note, now))) {
        throw validationFailed([{ field: 'status', message: `the report is already ${report.status}` }]);
      }
      const resolved: ListReportRecord = {
        ...report,
        status: decision.status,
        resolutionNote: decision.resolution_note,
        resolvedAt: now,
      };
      const reporter = await tx.identity.accounts.findById(report.accountId);
      if (reporter !== null && reporter.deletionRequestedAt === null) {
        await tx.mail.enqueue(
          listReportOutcomeMail(reporter.email, {
            domain: report.domain,
            listId: report.listId,
            status: decision.status,
            resolutionNote: decision.resolution_note,
          }),
        );
      }
      await tx.audit.record({
        ...actor,
        action: 'admin.list_report_resolved',
        target: `admin/list-reports/${id}`,
        details: {
          report_org_id: report.orgId,
          status: decision.status,
          domain: report.domain,
          list_id: report.listId,
          kind: report.kind,
          resolution_note: decision.resolution_note,
        },
        at: now,
      });
      return triagedListReportView(resolved);
    });
  }
}
