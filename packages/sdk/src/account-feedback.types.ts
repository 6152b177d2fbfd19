import type {
  AcceptedReport as AcceptedReportSchema,
  AuditEntryView as AuditEntryViewSchema,
  ClientErrorReport as ClientErrorReportSchema,
  FeedbackCreate as FeedbackCreateSchema,
  PreferencesPatch as PreferencesPatchSchema,
  Preferences as PreferencesSchema,
} from '@svc/domain';
import type { SchemaInput, SchemaOutput } from './schema-types.js';

/** Account preferences (spec 2.2), every key present. */
export type AccountPreferences = SchemaOutput<typeof PreferencesSchema>;
/** A JSON merge of preferences: omitted keys keep their value. */
export type AccountPreferencesPatch = SchemaInput<typeof PreferencesPatchSchema>;
/** One entry of the organisation's audit log (spec 6.2). */
export type AuditEntry = SchemaOutput<typeof AuditEntryViewSchema>;
/** A dashboard error report (spec 4.11); `release`, `route` and `at` are deprecated. */
export type ClientErrorReportRequest = SchemaInput<typeof ClientErrorReportSchema>;
/** Dashboard feedback: message (1 to 5000 characters), rating 1 to 5, url. */
export type FeedbackRequest = SchemaInput<typeof FeedbackCreateSchema>;
/** 202 answer of a report or feedback: its id. */
export type AcceptedReport = SchemaOutput<typeof AcceptedReportSchema>;
