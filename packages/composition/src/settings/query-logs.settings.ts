import { CLOUD_QUERY_LIMITS, type QueryLogReaderLimits } from '@svc/adapters';
import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import type { Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const queryLogVariables = {
  SVC_GEOIP_DB: z.string().min(1).optional().register(settingDocs, {
    description: 'MaxMind-format country database for the `destinations` analytics',
  }),
  SVC_QUERY_MAX_ROWS_TO_READ: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(CLOUD_QUERY_LIMITS.maxRowsToRead)
    .register(settingDocs, {
      description:
        'rows one cloud log or analytics query may read (ClickHouse `max_rows_to_read`); beyond is 422 `query_too_expensive`',
    }),
  SVC_QUERY_MAX_MEMORY_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(CLOUD_QUERY_LIMITS.maxMemoryBytes)
    .register(settingDocs, {
      description: 'memory one cloud query may use (`max_memory_usage`); beyond is 422 `query_too_expensive`',
    }),
  SVC_QUERY_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(3_600)
    .default(CLOUD_QUERY_LIMITS.maxExecutionSeconds)
    .register(settingDocs, {
      description:
        'run time of one cloud query (`max_execution_time`, fractions allowed); past it the query is cancelled: 504 `query_timeout`',
    }),
};

/** Log and analytics queries of the cloud store. */
export interface QueryLogSettings {
  /** The MaxMind-format country database of the `destinations` analytics. */
  geoipDb: string | undefined;
  /**
   * Ceilings of one cloud log or analytics query (spec 8): rows read and memory past which it is 422
   * query_too_expensive, and the run time past which the store cancels it (504 query_timeout).
   */
  cloudQueryLimits: QueryLogReaderLimits;
}

export function queryLogSettings(raw: Parsed<typeof queryLogVariables>): QueryLogSettings {
  return {
    geoipDb: raw.SVC_GEOIP_DB,
    cloudQueryLimits: {
      maxRowsToRead: raw.SVC_QUERY_MAX_ROWS_TO_READ,
      maxMemoryBytes: raw.SVC_QUERY_MAX_MEMORY_BYTES,
      maxExecutionSeconds: raw.SVC_QUERY_TIMEOUT_SECONDS,
    },
  };
}
