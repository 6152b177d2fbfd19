import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { type Parsed, urlWithSchemes } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const listVariables = {
  SVC_LIST_REFRESH_HOURS: z.coerce.number().int().min(0).max(720).default(24).register(settingDocs, {
    description:
      'hours between blocklist source refreshes (`0`: none; `svc lists refresh` still works); a failing source keeps its last good version',
  }),
  SVC_LIST_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2_147_483_647)
    .default(67_108_864)
    .register(settingDocs, {
      description: 'largest blocklist source read, after decompression; a larger one fails its fetch',
    }),
  SVC_LIST_FETCH_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(120)
    .register(settingDocs, {
      description:
        'time-out of one fetch of a blocklist source, body included (failures are retried with backoff)',
    }),
  SVC_LIST_MIRROR_URL: urlWithSchemes(['http:', 'https:']).optional().register(settingDocs, {
    description:
      'fetch every blocklist source from `<url>/<source id>` instead of upstream (a mirror for servers without internet access)',
  }),
};

/**
 * The list pipeline: hours between refreshes of the catalogue's sources (0 turns the schedule off; `svc
 * lists refresh` still works), the largest source body read, the time-out of one fetch attempt, and a
 * mirror to fetch every source from (`<mirror>/<source id>`) instead of its upstream address.
 */
export interface ListSettings {
  refreshHours: number;
  maxBytes: number;
  fetchTimeoutMs: number;
  mirrorUrl: string | undefined;
}

export function listSettings(raw: Parsed<typeof listVariables>): ListSettings {
  return {
    refreshHours: raw.SVC_LIST_REFRESH_HOURS,
    maxBytes: raw.SVC_LIST_MAX_BYTES,
    fetchTimeoutMs: raw.SVC_LIST_FETCH_TIMEOUT_SECONDS * 1000,
    mirrorUrl: raw.SVC_LIST_MIRROR_URL,
  };
}
