import type { AcceptedReport, ClientErrorReportRequest } from '../account-feedback.types.js';
import type { Transport } from '../transport.js';

/** Dashboard error reports, `/v1/client-errors` (spec 4.11). */
export class ClientErrorsResource {
  constructor(private readonly transport: Transport) {}

  /**
   * POST /v1/client-errors (session, or token with account:read): stored scrubbed for 30 days. Throws ApiError
   * 400 body_too_large over 32 KiB and 429 rate_limited past 10 a minute.
   */
  async report(report: ClientErrorReportRequest): Promise<AcceptedReport> {
    return (
      await this.transport.send<AcceptedReport>({ method: 'POST', path: '/v1/client-errors', body: report })
    ).data;
  }
}
