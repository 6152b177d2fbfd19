import { z } from 'zod';
import { ProfileId } from '../profiles/profile.schemas.js';
import { DOMAIN_NAME_MAX_LENGTH, normaliseDomainName } from '../rules/rule-pattern.js';

/** Longest note of a list report (spec 4.5, section 8). */
const LIST_REPORT_NOTE_MAX_LENGTH = 500;
/** Longest domain text accepted before normalisation (a 253-character name, a trailing dot, spaces). */
const DOMAIN_TEXT_MAX_LENGTH = 300;

/** What the reporter says is wrong with the list (spec 4.5). */
const LIST_REPORT_KINDS = ['false_positive', 'false_negative'] as const;
export const ListReportKind = z
  .enum(LIST_REPORT_KINDS, { error: () => `must be one of ${LIST_REPORT_KINDS.join(', ')}` })
  .meta({
    description:
      '`false_positive`: the list blocks the domain but should not; `false_negative`: it should block it but does not.',
  });
export type ListReportKind = z.infer<typeof ListReportKind>;

/** Triage states of a report (spec 2.6, 3). */
const LIST_REPORT_STATUSES = ['open', 'accepted', 'rejected'] as const;
export const ListReportStatus = z.enum(LIST_REPORT_STATUSES);
export type ListReportStatus = z.infer<typeof ListReportStatus>;

/**
 * The reported domain, checked and rewritten in place to its normal form: lower case, IDNA A-labels, no
 * trailing dot, at most 253 characters (the name rules of rule patterns without a prefix).
 */
const ListReportDomain = z
  .string({ error: 'must be a domain name such as example.com' })
  .max(DOMAIN_TEXT_MAX_LENGTH, `must be at most ${DOMAIN_NAME_MAX_LENGTH} characters`)
  .superRefine((value, context) => {
    if (value.length > DOMAIN_TEXT_MAX_LENGTH) return;
    const result = normaliseDomainName(value);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.message, input: value });
  })
  .overwrite((value) => {
    const result = normaliseDomainName(value);
    return result.ok ? result.name : value;
  })
  .meta({
    description: `A domain name, at most ${DOMAIN_NAME_MAX_LENGTH} characters; stored lower case, as IDNA A-labels, without a trailing dot.`,
    example: 'ads.example.com',
  });

const listId = z
  .number({ error: 'must be a list id from GET /v1/lists' })
  .int('must be a list id from GET /v1/lists')
  .min(1, 'must be a list id from GET /v1/lists')
  .max(65_535, 'must be at most 65535');

/** POST /v1/profiles/{id}/list-reports (spec 4.5). */
export const ListReportCreate = z
  .object({
    domain: ListReportDomain,
    list_id: listId.meta({ description: 'The list reported, an id from GET /v1/lists.' }),
    kind: ListReportKind,
    note: z
      .string({ error: 'must be a string' })
      .max(LIST_REPORT_NOTE_MAX_LENGTH, `must be at most ${LIST_REPORT_NOTE_MAX_LENGTH} characters`)
      .optional()
      .meta({ description: 'Anything the operator should know; empty when omitted.' }),
  })
  .strict()
  .meta({ id: 'ListReportCreate' });
export type ListReportCreate = z.infer<typeof ListReportCreate>;

/** The 202 answer of a report: its id. */
export const ListReportAccepted = z.object({ id: z.uuid() }).meta({ id: 'ListReportAccepted' });
export type ListReportAccepted = z.infer<typeof ListReportAccepted>;

/** A list report (spec 2.6). */
export const ListReport = z
  .object({
    id: z.uuid(),
    profile_id: ProfileId,
    domain: z.string().max(DOMAIN_NAME_MAX_LENGTH),
    list_id: listId,
    list_version: z
      .int()
      .nullable()
      .meta({ description: 'The list’s catalogue version when reported.', format: 'int64' }),
    kind: ListReportKind,
    note: z.string().max(LIST_REPORT_NOTE_MAX_LENGTH),
    status: ListReportStatus,
    resolution_note: z.string().meta({ description: 'The operator’s note; empty until resolved.' }),
    resolved_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    triage_due_at: z.iso.datetime().meta({
      description:
        'Two business days (Monday to Friday, UTC) after created_at: the first instant with 48 hours of weekday time behind it.',
    }),
  })
  .meta({ id: 'ListReport' });
export type ListReport = z.infer<typeof ListReport>;

/** GET /v1/profiles/{id}/list-reports (spec 4.5), newest first. */
export const ListReportList = z
  .object({ reports: z.array(ListReport), next_cursor: z.string().nullable() })
  .meta({ id: 'ListReportList' });
export type ListReportList = z.infer<typeof ListReportList>;
