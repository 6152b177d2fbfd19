import { z } from 'zod';
import { AuditActionEnum, AuditEntryView } from '../audit/audit-log.service.js';
import { PageQuery } from '../pagination/pagination.js';

/** Query of GET /v1/admin/audit: page, and optional organisation and action filters. */
export const AdminAuditQuery = PageQuery.extend({
  org_id: z.uuid({ error: 'must be an organisation id (uuid)' }).optional().meta({
    description: 'Only this organisation’s entries.',
  }),
  action: z
    .union([AuditActionEnum, z.array(AuditActionEnum)])
    .optional()
    .meta({ description: 'Only entries of this action; repeat for several.' }),
});
export type AdminAuditQuery = z.infer<typeof AdminAuditQuery>;

/** An audit entry of any organisation, as operators see it. */
export const AdminAuditEntry = AuditEntryView.extend({ org_id: z.uuid() }).meta({ id: 'AdminAuditEntry' });
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;

/** GET /v1/admin/audit. */
export const AdminAuditList = z
  .object({ entries: z.array(AdminAuditEntry), next_cursor: z.string().nullable() })
  .meta({ id: 'AdminAuditList' });
export type AdminAuditList = z.infer<typeof AdminAuditList>;

/** A dashboard error report, operator view (spec 2.10). */
export const OperatorClientError = z
  .object({
    id: z.int(),
    account_id: z.uuid(),
    actor: z.string().meta({ description: '`account:<id>` or `token:<id>`.' }),
    message: z.string(),
    stack: z.string().nullable(),
    url: z.string().nullable(),
    user_agent: z.string().nullable(),
    dashboard_version: z.string().nullable(),
    sampled_rate: z.number().nullable(),
    kind: z.string().nullable(),
    name: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OperatorClientError' });
export type OperatorClientError = z.infer<typeof OperatorClientError>;

/** GET /v1/admin/client-errors (spec 4.10). */
export const OperatorClientErrorList = z
  .object({ client_errors: z.array(OperatorClientError), next_cursor: z.string().nullable() })
  .meta({ id: 'OperatorClientErrorList' });
export type OperatorClientErrorList = z.infer<typeof OperatorClientErrorList>;

/** Dashboard feedback, operator view. */
export const OperatorFeedback = z
  .object({
    id: z.int(),
    account_id: z.uuid(),
    org_id: z.uuid(),
    actor: z.string(),
    message: z.string(),
    rating: z.number().nullable(),
    url: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OperatorFeedback' });
export type OperatorFeedback = z.infer<typeof OperatorFeedback>;

/** GET /v1/admin/feedback. */
export const OperatorFeedbackList = z
  .object({ feedback: z.array(OperatorFeedback), next_cursor: z.string().nullable() })
  .meta({ id: 'OperatorFeedbackList' });
export type OperatorFeedbackList = z.infer<typeof OperatorFeedbackList>;
