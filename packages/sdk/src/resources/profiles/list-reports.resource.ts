import type { ListReport, ListReportAccepted } from '@svc/domain';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { ListReportCreateRequest } from '../../profiles.types.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { profilePath } from './profile-path.js';

/** Options of {@link ListReportsResource.list}. */
export interface ListReportListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every report, page after page. */
  limit?: number;
}

/** Reports of domains a blocklist gets wrong, `/v1/profiles/{id}/list-reports` (spec 2.6, 4.5). */
export class ListReportsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * POST …/list-reports (scope profiles:write): records the report for triage and answers its id. Throws
   * ApiError 429 `too_many_reports` beyond 20 reports per account in 24 hours (see `retryAfter`), 422
   * `validation_failed` naming `list_id` for a list not in the catalogue, 409 `profile_suspended`.
   */
  async create(
    id: string,
    report: ListReportCreateRequest,
    options: CreateOptions = {},
  ): Promise<ListReportAccepted> {
    return (
      await this.transport.send<ListReportAccepted>({
        method: 'POST',
        path: profilePath(id, 'list-reports'),
        body: report,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      })
    ).data;
  }

  /** GET …/list-reports (scope profiles:read): reports by any member of the organisation, newest first. */
  list(id: string, options: ListReportListOptions = {}): Paginator<ListReport> {
    return listPages<ListReport>(this.transport, profilePath(id, 'list-reports'), 'reports', {
      limit: options.limit,
    });
  }
}
