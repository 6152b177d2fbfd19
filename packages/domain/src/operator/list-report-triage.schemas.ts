import { z } from 'zod';
import { ListReport, ListReportStatus } from '../list-reports/list-report.schemas.js';
import { PageQuery } from '../pagination/pagination.js';

/** A list report as operators see it: with the reporting organisation. */
export const TriagedListReport = ListReport.extend({
  org_id: z.uuid().meta({ description: 'The reporting organisation.' }),
}).meta({ id: 'TriagedListReport' });
export type TriagedListReport = z.infer<typeof TriagedListReport>;

/** GET /v1/admin/list-reports: the triage queue, oldest due first. */
export const TriageQueue = z
  .object({ reports: z.array(TriagedListReport), next_cursor: z.string().nullable() })
  .meta({ id: 'TriageQueue' });
export type TriageQueue = z.infer<typeof TriageQueue>;

/** Query of the triage queue: page and status (open unless given). */
export const TriageQuery = PageQuery.extend({
  status: ListReportStatus.default('open').meta({ description: 'Reports in this state; open by default.' }),
});
export type TriageQuery = z.infer<typeof TriageQuery>;

/** PATCH /v1/admin/list-reports/{id}: the outcome and the note the reporter is emailed. */
export const TriageDecision = z
  .object({
    status: z.enum(['accepted', 'rejected'], { error: 'must be accepted or rejected' }),
    resolution_note: z
      .string()
      .trim()
      .min(1, 'is required: the reporter is emailed it')
      .max(1000, 'must be at most 1000 characters'),
  })
  .strict()
  .meta({ id: 'TriageDecision' });
export type TriageDecision = z.infer<typeof TriageDecision>;
