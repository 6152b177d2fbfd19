import { QUERY_STATUSES } from '@svc/domain';
import type { SeededRandom } from './seeded-random.js';
import {
  ANSWERS_NONE,
  ANSWERS_NULL_V4,
  ANSWERS_NULL_V6,
  ANSWERS_PAGE_V4,
  ANSWERS_PAGE_V6,
  BLOCK_MODES,
  type ProfileTraffic,
} from './simulation-traffic.js';

// One simulated query between its draws and its row: what was asked, how the edge decided and answered, and
// how long it took. The simulation draws millions, so one object is refilled for each rather than made anew.

/** Share of queries failing upstream (SERVFAIL), whatever the name. */
export const ERROR_RATE = 0.008;
/** Share of allowed queries answered from the cache. */
const CACHE_HIT_RATE = 0.62;
/** Query types and their shares: A, AAAA, HTTPS, CNAME, TXT, PTR, SRV, MX. */
export const QTYPES = [1, 28, 65, 5, 16, 12, 33, 15];
export const QTYPE_SHARES = [0.52, 0.3, 0.1, 0.02, 0.02, 0.015, 0.01, 0.015];
export const ERROR_INDEX = QUERY_STATUSES.indexOf('error');
export const ALLOWED_INDEX = QUERY_STATUSES.indexOf('allowed');
const REWRITTEN_INDEX = QUERY_STATUSES.indexOf('rewritten');

/** A query as drawn: indexes into the simulation's devices, names and statuses, codes of its answers. */
export interface DrawnQuery {
  ms: number;
  /** -1 when the query came without a device. */
  deviceIndex: number;
  nameIndex: number;
  qtype: number;
  failed: boolean;
  statusIndex: number;
  rcode: number;
  /** Code of its answer set in the traffic's answer dictionary. */
  answers: number;
  cacheHit: boolean;
  latencyUs: number;
  /** Uniform draws in [0, 1) that pick its PoP and client address when a row is built. */
  popDraw: number;
  ipDraw: number;
}

/** A query to be refilled by each draw. */
export function drawnQuery(): DrawnQuery {
  return {
    ms: 0,
    deviceIndex: -1,
    nameIndex: 0,
    qtype: 0,
    failed: false,
    statusIndex: 0,
    rcode: 0,
    answers: ANSWERS_NONE,
    cacheHit: false,
    latencyUs: 0,
    popDraw: 0,
    ipDraw: 0,
  };
}

/**
 * Fills in the answer of a drawn query from its status: SERVFAIL after a slow upstream, an allowed name's
 * addresses (from the cache or upstream), a rewrite's, or the profile's block mode.
 */
export function drawAnswer(query: DrawnQuery, random: SeededRandom, traffic: ProfileTraffic): void {
  const { statusIndex, nameIndex, qtype } = query;
  query.rcode = 0;
  query.answers = ANSWERS_NONE;
  query.cacheHit = false;
  if (statusIndex === ERROR_INDEX) {
    query.rcode = 2;
    query.latencyUs = 800_000 + random.int(3_200_000);
  } else if (statusIndex === ALLOWED_INDEX) {
    query.cacheHit = random.float() < CACHE_HIT_RATE;
    query.latencyUs = query.cacheHit ? 40 + random.int(700) : upstreamLatency(random);
    if (traffic.missing[nameIndex] === 1) query.rcode = 3;
    else if (qtype === 1) query.answers = traffic.nameV4[nameIndex] as number;
    else if (qtype === 28) query.answers = traffic.nameV6[nameIndex] as number;
  } else {
    query.latencyUs = 30 + random.int(300);
    if (statusIndex === REWRITTEN_INDEX) {
      query.answers =
        qtype === 1
          ? (traffic.rewriteV4[nameIndex] as number)
          : qtype === 28
            ? (traffic.rewriteV6[nameIndex] as number)
            : ANSWERS_NONE;
    } else blockAnswer(query, BLOCK_MODES[traffic.blockModes[nameIndex] as number]);
  }
}

/** The answer of a blocked query in the profile's block mode. */
function blockAnswer(query: DrawnQuery, mode: (typeof BLOCK_MODES)[number] | undefined): void {
  const qtype = query.qtype;
  switch (mode) {
    case 'nxdomain':
      query.rcode = 3;
      break;
    case 'refused':
      query.rcode = 5;
      break;
    case 'null':
      query.answers = qtype === 1 ? ANSWERS_NULL_V4 : qtype === 28 ? ANSWERS_NULL_V6 : ANSWERS_NONE;
      break;
    case 'block-page':
      query.answers = qtype === 1 ? ANSWERS_PAGE_V4 : qtype === 28 ? ANSWERS_PAGE_V6 : ANSWERS_NONE;
      break;
  }
}

/** Upstream resolution time: roughly log-normal around 20 ms, from 2 ms to a few hundred. */
function upstreamLatency(random: SeededRandom): number {
  const gauss = random.float() + random.float() + random.float() - 1.5;
  return Math.max(2_000, Math.round(20_000 * Math.exp(gauss * 1.6)));
}
