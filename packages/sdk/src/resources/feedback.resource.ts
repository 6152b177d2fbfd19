import type { AcceptedReport, FeedbackRequest } from '../account-feedback.types.js';
import type { Transport } from '../transport.js';

/** Dashboard feedback, `/v1/feedback`. */
export class FeedbackResource {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/feedback (session or token): `{message, rating?, url?}`. */
  async send(feedback: FeedbackRequest): Promise<AcceptedReport> {
    return (
      await this.transport.send<AcceptedReport>({ method: 'POST', path: '/v1/feedback', body: feedback })
    ).data;
  }
}
