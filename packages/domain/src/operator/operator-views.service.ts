import type { AuditActorEmails, AuditLogStore } from '../audit/audit.ports.js';
import { auditEntryView } from '../audit/audit-log.service.js';
import { type CursorSealer, type PageQuery, pageFrom } from '../pagination/pagination.js';
import type { Clock } from '../shared/clock.ports.js';
import { validationFailed } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { OperatorViewScope } from './operator.ports.js';
import type {
  AdminAuditList,
  AdminAuditQuery,
  OperatorClientErrorList,
  OperatorFeedbackList,
} from './operator-views.schemas.js';

/** What the operator views are built from. */
export interface OperatorViewDependencies {
  uow: ScopedUnitOfWork<OperatorViewScope>;
  auditLog: AuditLogStore;
  /** Operators see every organisation's log, so actors resolve whatever organisation they belong to. */
  actors: AuditActorEmails;
  clock: Clock;
  cursors: CursorSealer;
}

const DAY_MS = 86_400_000;
/** Dashboard error reports are kept 30 days (spec 4.11, 8); the operator view lists those. */
const CLIENT_ERRORS_VIEW_DAYS = 30;
/** Operators see the feedback of the last 365 days (spec 4.13). */
const FEEDBACK_VIEW_DAYS = 365;

/** The rows a page of a recent-rows view asks the store for. */
interface RecentWindow {
  since: Date;
  after: { createdAt: Date; id: string } | null;
  limit: number;
}

/** Opens a newest-first cursor `{t, i}` of the list named `list`; a mangled position is 422 naming cursor. */
function positionOf(
  cursors: CursorSealer,
  list: string,
  cursor: string | undefined,
): { at: Date; id: string } | null {
  if (cursor === undefined) return null;
  const position = cursors.open(list, cursor);
  const at = new Date(String(position.t));
  const id = String(position.i);
  if (Number.isNaN(at.getTime()) || !/^\d+$/.test(id)) {
    throw validationFailed([{ field: 'cursor', message: 'not a cursor of this list' }]);
  }
  return { at, id };
}

/**
 * Operator views across every organisation (spec 4.10, 4.13; ROUTES.md "Operator"): the audit log, dashboard
 * error reports of the last 30 days and feedback of the last 365 days, newest first with sealed cursors (a
 * cursor is bound to its filters).
 */
export class OperatorViewService {
  constructor(private readonly deps: OperatorViewDependencies) {}

  async audit(query: AdminAuditQuery): Promise<AdminAuditList> {
    const actions = query.action === undefined ? [] : [query.action].flat();
    const list = `admin-audit:${query.org_id ?? '*'}:${[...actions].sort().join(',')}`;
    const after = positionOf(this.deps.cursors, list, query.cursor);
    const rows = await this.deps.auditLog.pageAcrossOrganisations(query.org_id ?? null, {
      limit: query.limit + 1,
      after,
      actions,
    });
    const page = pageFrom(rows, query.limit, this.deps.cursors, list, (row) => ({
      t: row.at.toISOString(),
      i: row.id,
    }));
    const emails = await this.deps.actors.emailsOf([...new Set(page.items.map((row) => row.actor))], null);
    return {
      entries: page.items.map((row) => ({ ...auditEntryView(row, emails), org_id: row.orgId })),
      next_cursor: page.nextCursor,
    };
  }

  async clientErrors(query: PageQuery): Promise<OperatorClientErrorList> {
    const page = await this.recent('admin-client-errors', CLIENT_ERRORS_VIEW_DAYS, query, (tx, window) =>
      tx.clientErrors.page(window),
    );
    return {
      client_errors: page.items.map((row) => ({
        id: Number(row.id),
        account_id: row.accountId,
        actor: row.actor,
        message: row.message,
        stack: row.stack,
        url: row.url,
        user_agent: row.userAgent,
        dashboard_version: row.dashboardVersion,
        sampled_rate: row.sampledRate,
        kind: row.kind,
        name: row.name,
        created_at: row.createdAt.toISOString(),
      })),
      next_cursor: page.nextCursor,
    };
  }

  async feedback(query: PageQuery): Promise<OperatorFeedbackList> {
    const page = await this.recent('admin-feedback', FEEDBACK_VIEW_DAYS, query, (tx, window) =>
      tx.feedback.page(window),
    );
    return {
      feedback: page.items.map((row) => ({
        id: Number(row.id),
        account_id: row.accountId,
        org_id: row.orgId,
        actor: row.actor,
        message: row.message,
        rating: row.rating,
        url: row.url,
        created_at: row.createdAt.toISOString(),
      })),
      next_cursor: page.nextCursor,
    };
  }

  /** A newest-first page of the rows of the last `days` days, read by `read` in one transaction. */
  private async recent<Row extends { createdAt: Date; id: string }>(
    list: string,
    days: number,
    query: PageQuery,
    read: (tx: OperatorViewScope, window: RecentWindow) => Promise<Row[]>,
  ) {
    const after = positionOf(this.deps.cursors, list, query.cursor);
    const since = new Date(this.deps.clock.now().getTime() - days * DAY_MS);
    const rows = await this.deps.uow.run((tx) =>
      read(tx, {
        since,
        after: after === null ? null : { createdAt: after.at, id: after.id },
        limit: query.limit + 1,
      }),
    );
    return pageFrom(rows, query.limit, this.deps.cursors, list, (row) => ({
      t: row.createdAt.toISOString(),
      i: row.id,
    }));
  }
}
