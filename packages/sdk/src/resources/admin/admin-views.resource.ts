import type { AdminAuditEntry, OperatorClientError, OperatorFeedback } from '@svc/domain';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { Transport } from '../../transport.js';

/** Options of {@link AdminAuditResource.list}. */
export interface AdminAuditListOptions {
  /** Page size, 1 to 200 (default 50). */
  limit?: number;
  /** Only this organisation's entries. */
  orgId?: string;
  /** Only entries of these actions. */
  action?: string | readonly string[];
}

/** Every organisation's audit log, `/v1/admin/audit` (scope admin). */
export class AdminAuditResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/audit: newest first, auto-paging. */
  list(options: AdminAuditListOptions = {}): Paginator<AdminAuditEntry> {
    return listPages<AdminAuditEntry>(this.transport, '/v1/admin/audit', 'entries', {
      limit: options.limit,
      org_id: options.orgId,
      action: options.action,
    });
  }
}

/** Dashboard error reports of every account, last 30 days, `/v1/admin/client-errors` (scope admin). */
export class AdminClientErrorsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/client-errors: newest first, auto-paging. */
  list(options: { limit?: number } = {}): Paginator<OperatorClientError> {
    return listPages<OperatorClientError>(this.transport, '/v1/admin/client-errors', 'client_errors', {
      limit: options.limit,
    });
  }
}

/** Dashboard feedback of every account, last 365 days, `/v1/admin/feedback` (scope admin). */
export class AdminFeedbackResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/feedback: newest first, auto-paging. */
  list(options: { limit?: number } = {}): Paginator<OperatorFeedback> {
    return listPages<OperatorFeedback>(this.transport, '/v1/admin/feedback', 'feedback', {
      limit: options.limit,
    });
  }
}
