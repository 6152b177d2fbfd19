import type { DataExport as DataExportSchema } from '@svc/domain';
import type { SchemaOutput } from './schema-types.js';

/** A data export of the account: `pending`, `ready` (with `download_url`), `failed` or `expired`. */
export type DataExport = SchemaOutput<typeof DataExportSchema>;
