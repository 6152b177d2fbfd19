import { z } from 'zod';

/**
 * Status of a data export (ROUTES.md): `pending` until the background job has built the archive, then
 * `ready` (downloadable until it expires), `failed` when it could not be built, `expired` once its retention
 * ended and the archive was removed.
 */
const DataExportStatus = z
  .enum(['pending', 'ready', 'failed', 'expired'])
  .meta({ id: 'DataExportStatus', description: 'pending, ready, failed or expired.' });

/** A data export as answered. */
export const DataExport = z
  .object({
    id: z.uuid(),
    status: DataExportStatus,
    created_at: z.iso.datetime(),
    completed_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the archive was built (or the build failed); null while pending.' }),
    expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the archive is removed (7 days after it was built); null until ready.' }),
    size_bytes: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Size of the archive in bytes; null until ready.' }),
    download_url: z
      .url()
      .optional()
      .meta({ description: 'Only while ready: GET it with the session to download the archive.' }),
  })
  .meta({ id: 'DataExport', description: 'A data export of the account (GDPR).' });
export type DataExport = z.infer<typeof DataExport>;

/** `{export}`: the answer of starting or reading one export. */
export const DataExportEnvelope = z.object({ export: DataExport }).meta({ id: 'DataExportEnvelope' });
export type DataExportEnvelope = z.infer<typeof DataExportEnvelope>;

/** A page of the account's exports, newest first. */
export const DataExportList = z
  .object({ exports: z.array(DataExport), next_cursor: z.string().nullable() })
  .meta({ id: 'DataExportList' });
export type DataExportList = z.infer<typeof DataExportList>;
