import { z } from 'zod';
import { TimeZone } from '../schedules/time-zone.js';
import { parseIp } from './ip-prefix.js';
import { QUERY_STATUSES } from './query-log-row.js';

/** Shapes of GET /v1/profiles/{id}/logs (spec 4.6): `mode`. */
export const LOG_MODES = ['tail', 'search'] as const;
export type LogMode = (typeof LOG_MODES)[number];

/** Shapes of GET /v1/profiles/{id}/analytics/{shape} (spec 4.6). */
export const ANALYTICS_SHAPES = [
  'counts_by_status',
  'top_domains',
  'top_devices',
  'top_blocked',
  'destinations',
  'timeline',
  'top_reasons',
  'top_owners',
  'top_pops',
] as const;
export type AnalyticsShape = (typeof ANALYTICS_SHAPES)[number];

/** Every shape a query result can have (spec 2.11). */
export type QueryShape = LogMode | AnalyticsShape;

/** Log query page size (spec 8): default 100, 1 to 1000; top_pops: default 10, at most 100. */
export const LOG_LIMIT_DEFAULT = 100;
export const LOG_LIMIT_MAX = 1000;
export const TOP_POPS_LIMIT_DEFAULT = 10;
export const TOP_POPS_LIMIT_MAX = 100;
/** Timeline bucket width in seconds (spec 8). */
export const BUCKET_MIN_SECONDS = 60;
export const BUCKET_MAX_SECONDS = 86_400;
const BUCKET_DEFAULT_SECONDS = 3_600;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const UNIX_MS = /^\d{1,15}$/;
const INSTANT_MESSAGE = 'must be an RFC 3339 date-time (with offset) or Unix milliseconds';

/** A point in time as a query parameter: RFC 3339 with an offset, or Unix milliseconds (spec 4.6). */
export function parseInstant(value: string): Date | null {
  if (UNIX_MS.test(value)) {
    const date = new Date(Number(value));
    return Number.isNaN(date.getTime()) ? null : date;
  }
  if (!RFC3339.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const Instant = z
  .string()
  .transform((value, context) => {
    const date = parseInstant(value);
    if (date === null) {
      context.addIssue({ code: 'custom', message: INSTANT_MESSAGE });
      return z.NEVER;
    }
    return date;
  })
  .meta({ type: 'string', example: '2026-11-01T00:00:00Z' });

/** A parameter that may be repeated (`status=blocked&status=error`): always an array once parsed. */
function repeated<T extends z.ZodType>(item: T, description: string) {
  return z
    .preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item))
    .optional()
    .meta({ description });
}

const ListId = z.coerce
  .number({ error: 'must be a blocking list id (an integer from 0 to 65535)' })
  .int('must be a blocking list id (an integer from 0 to 65535)')
  .min(0, 'must be a blocking list id (an integer from 0 to 65535)')
  .max(65_535, 'must be a blocking list id (an integer from 0 to 65535)');
const QueryType = z.coerce
  .number({ error: 'must be a numeric DNS type from 0 to 65535' })
  .int('must be a numeric DNS type from 0 to 65535')
  .min(0, 'must be a numeric DNS type from 0 to 65535')
  .max(65_535, 'must be a numeric DNS type from 0 to 65535');

/** Filters and paging shared by logs and analytics (spec 4.6), before per-shape defaults. */
const commonParameters = {
  from: Instant.optional().meta({
    description:
      'Inclusive start, RFC 3339 or Unix milliseconds. Default: the shape’s longest range before `to`.',
  }),
  to: Instant.optional().meta({ description: 'Exclusive end, RFC 3339 or Unix milliseconds. Default: now.' }),
  device: repeated(
    z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
    'Device id; repeat for several.',
  ),
  status: repeated(
    z.enum(QUERY_STATUSES, { error: `must be one of ${QUERY_STATUSES.join(', ')}` }),
    'allowed, blocked, rewritten, error; repeat for several.',
  ),
  qname: z
    .string()
    .min(1, 'must not be empty')
    .max(253, 'must be at most 253 characters')
    .optional()
    .meta({ description: 'Substring of the name for search, the exact name otherwise.' }),
  qtype: repeated(QueryType, 'Numeric DNS type; repeat for several.'),
  list: repeated(ListId, 'Blocking list id; repeat for several.'),
  client_ip: z
    .string()
    .refine((value) => parseIp(value) !== null, 'must be an IPv4 or IPv6 address')
    .optional()
    .meta({ description: 'Client address.' }),
  decided_by: z
    .string()
    .regex(
      /^[a-z0-9:._~-]{1,100}\*?$/,
      'must be 1 to 100 characters of a-z, 0-9 and :._~-, optionally ending in *',
    )
    .optional()
    .meta({
      description:
        'The policy that decided (issue 38): exact (`paused`, `schedule:bedtime`), or a prefix with a trailing `*` (`schedule:*`).',
      example: 'schedule:*',
    }),
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 1000')
    .max(LOG_LIMIT_MAX, 'must be between 1 and 1000')
    .optional()
    .meta({ description: 'Rows at most: default 100, 1 to 1000 (top_pops: default 10, at most 100).' }),
  cursor: z
    .string()
    .optional()
    .meta({ description: 'A previous next_cursor (opaque, at most 512 characters).' }),
  tz: TimeZone.optional().meta({
    description:
      'IANA time zone (issue 38): timeline buckets align on its local hours and midnights (days of 23 or 25 hours included) and time cells carry its offset. Default: UTC, buckets aligned on the Unix epoch. Hourly totals are kept per UTC hour: for zones whose offset is not a whole number of hours, buckets report the enclosing whole hours.',
    example: 'Europe/Berlin',
  }),
};

/** Query parameters of GET /v1/profiles/{id}/logs. */
export const LogQueryParameters = z
  .object({
    mode: z.enum(LOG_MODES, { error: 'must be tail or search' }).default('tail').meta({
      description:
        '`tail` (default): the latest rows, or with a cursor the rows that arrived after it (polling). `search`: newest first over the range, older pages with the cursor.',
    }),
    ...commonParameters,
  })
  .meta({ id: 'LogQueryParameters' });
export type LogQueryParameters = z.infer<typeof LogQueryParameters>;

/** Query parameters of GET /v1/profiles/{id}/analytics/{shape}. */
export const AnalyticsQueryParameters = z
  .object({
    ...commonParameters,
    bucket: z.coerce
      .number({ error: 'must be an integer from 60 to 86400' })
      .int('must be an integer from 60 to 86400')
      .min(BUCKET_MIN_SECONDS, 'must be an integer from 60 to 86400')
      .max(BUCKET_MAX_SECONDS, 'must be an integer from 60 to 86400')
      .default(BUCKET_DEFAULT_SECONDS)
      .meta({ description: 'Timeline bucket width in seconds, 60 to 86400 (default 3600).' }),
  })
  .meta({ id: 'AnalyticsQueryParameters' });
export type AnalyticsQueryParameters = z.infer<typeof AnalyticsQueryParameters>;

/** Path of an analytics query: the shape is one of the analytics shapes. */
export const AnalyticsShapeName = z.enum(ANALYTICS_SHAPES, {
  error: `must be one of ${ANALYTICS_SHAPES.join(', ')}`,
});

/** Type names of query result columns (spec 2.11). */
const COLUMN_TYPES = ['string', 'int', 'uint', 'float', 'bool', 'time', 'unknown'] as const;

/** One column of a query result. */
export const QueryColumn = z
  .object({ name: z.string(), type: z.enum(COLUMN_TYPES) })
  .meta({ id: 'QueryColumn' });
export type QueryColumn = z.infer<typeof QueryColumn>;

/** One cell: time as RFC 3339, bytes as base64, NULL as null; a list of addresses as an array (type unknown). */
export type QueryCell = string | number | boolean | null | string[];

/** Why a result is partial (spec 2.11). */
const PARTIAL_REASONS = ['timeout', 'overload', 'node_reconnecting'] as const;

/** Where a result came from (spec 2.11). */
const QUERY_SOURCES = ['columnar', 'node', 'none'] as const;
export type QuerySource = (typeof QUERY_SOURCES)[number];

/** A query result (spec 2.11): the same shape whichever source answered. */
export const QueryResult = z
  .object({
    shape: z.enum([...LOG_MODES, ...ANALYTICS_SHAPES]),
    source: z.enum(QUERY_SOURCES),
    node: z.uuid().optional().meta({ description: 'The node that answered, when source is `node`.' }),
    columns: z.array(QueryColumn),
    rows: z
      .array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())])))
      .meta({ description: 'One array per row, cells in column order. Read cells by column name.' }),
    next_cursor: z.string().nullable(),
    partial: z.boolean().meta({ description: 'Always sent; false when complete.' }),
    partial_reason: z.enum(PARTIAL_REASONS).optional(),
  })
  .meta({ id: 'QueryResult' });
export type QueryResult = z.infer<typeof QueryResult>;
