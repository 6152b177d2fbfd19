import { z } from 'zod';
import { ProfileId } from '../profiles/profile.schemas.js';
import { parseIp } from './ip-prefix.js';
import {
  ANALYTICS_SHAPES,
  BUCKET_MAX_SECONDS,
  BUCKET_MIN_SECONDS,
  LOG_LIMIT_MAX,
  TOP_POPS_LIMIT_MAX,
} from './log-query.schemas.js';
import { QUERY_STATUSES } from './query-log-row.js';

/** A list or DNS type number, as the query string's `list` and `qtype` allow (0 to 65535). */
const Uint16 = z.int().min(0).max(65_535);

/**
 * The filters and paging of a validated log query as the node link carries them (docs/node-link-protocol.md,
 * `query`): what GET /v1/profiles/{id}/logs and /analytics/{shape} accept after their own schemas, in the
 * wire's names. Strict, so a relayed query can ask for nothing the HTTP routes would not have let through.
 */
const commonParameters = {
  profile_id: ProfileId,
  from: z.iso.datetime().nullable(),
  to: z.iso.datetime(),
  devices: z.array(z.string().min(1).max(64)),
  statuses: z.array(z.enum(QUERY_STATUSES)),
  qname: z.string().min(1).max(253).nullable(),
  qtypes: z.array(Uint16),
  lists: z.array(Uint16),
  client_ip: z
    .string()
    .refine((value) => parseIp(value) !== null, 'must be an IPv4 or IPv6 address')
    .nullable(),
  limit: z.int().min(1).max(LOG_LIMIT_MAX),
};

/** Tail: exact names, no buckets, and the cursor's position when continuing. */
const TailParameters = z.strictObject({
  ...commonParameters,
  qname_match: z.literal('exact'),
  bucket_s: z.literal(0),
  after: z.strictObject({ ts: z.int(), row_id: z.string().regex(/^\d{1,19}$/) }).nullable(),
});
/** Search: the name matches as a substring. */
const SearchParameters = TailParameters.extend({ qname_match: z.literal('substring') });
/** Analytics: exact names, a bucket width, never a position (analytics results have no pages). */
const AnalyticsParameters = z.strictObject({
  ...commonParameters,
  qname_match: z.literal('exact'),
  bucket_s: z.int().min(BUCKET_MIN_SECONDS).max(BUCKET_MAX_SECONDS),
  after: z.null(),
});

/** A relayed query: its shape and the parameters that shape allows (top_pops: at most 100 rows). */
export const RelayedQuery = z.discriminatedUnion('shape', [
  z.strictObject({ shape: z.literal('tail'), params: TailParameters }),
  z.strictObject({ shape: z.literal('search'), params: SearchParameters }),
  z.strictObject({
    shape: z.enum(ANALYTICS_SHAPES).exclude(['top_pops']),
    params: AnalyticsParameters,
  }),
  z.strictObject({
    shape: z.literal('top_pops'),
    params: AnalyticsParameters.extend({ limit: z.int().min(1).max(TOP_POPS_LIMIT_MAX) }),
  }),
]);
export type RelayedQuery = z.infer<typeof RelayedQuery>;
