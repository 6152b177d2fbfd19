import type { CompilerSourceList, ListBuildList, TriagedListReport } from '@svc/domain';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { Transport } from '../../transport.js';

/** Options of {@link AdminListReportsResource.list}. */
export interface TriageListOptions {
  /** Page size, 1 to 200 (default 50). */
  limit?: number;
  /** Reports in this state; open by default. */
  status?: 'open' | 'accepted' | 'rejected';
}

/** List-report triage, `/v1/admin/list-reports` (scope admin, spec 3). */
export class AdminListReportsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/list-reports: every organisation's reports, oldest due first, auto-paging. */
  list(options: TriageListOptions = {}): Paginator<TriagedListReport> {
    return listPages<TriagedListReport>(this.transport, '/v1/admin/list-reports', 'reports', {
      limit: options.limit,
      status: options.status,
    });
  }

  /**
   * PATCH /v1/admin/list-reports/{id}: accepts or rejects an open report; the reporter is emailed the outcome
   * and the note. Throws ApiError 422 naming `status` when the report is no longer open.
   */
  async decide(
    id: string,
    request: { status: 'accepted' | 'rejected'; resolution_note: string },
  ): Promise<TriagedListReport> {
    return (
      await this.transport.send<TriagedListReport>({
        method: 'PATCH',
        path: `/v1/admin/list-reports/${encodeURIComponent(id)}`,
        body: request,
      })
    ).data;
  }
}

/** The list compiler's catalogue views, `/v1/admin/lists/…` (scope admin). */
export class AdminListsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/admin/lists/sources: the compiler's sources with their last recorded fetch. */
  async sources(): Promise<CompilerSourceList> {
    return (await this.transport.send<CompilerSourceList>({ method: 'GET', path: '/v1/admin/lists/sources' }))
      .data;
  }

  /** GET /v1/admin/lists/versions: the list builds of the current catalogue. */
  async versions(): Promise<ListBuildList> {
    return (await this.transport.send<ListBuildList>({ method: 'GET', path: '/v1/admin/lists/versions' }))
      .data;
  }
}
