import {
  ANALYTICS_SHAPES,
  AnalyticsQueryParameters,
  analyticsQueryOf,
  filtersOf,
  LOG_MODES,
  LogQueryParameters,
  RelayedQuery,
  resolveRange,
} from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { relayedParameters } from '../src/links/node-link.log-query-relay.js';

const now = new Date('2026-11-27T12:00:00Z');
/** Every filter the routes take, at its widest. */
const everyFilter = {
  from: '2026-11-27T00:00:00Z',
  device: ['laptop', 'phone'],
  status: ['blocked', 'error'],
  qname: 'example.com',
  qtype: ['1', '28'],
  list: ['0', '65535'],
  client_ip: '2001:db8::1',
  limit: '100',
};

/**
 * What a server relays is what the server holding the link accepts (issue 35): every query the log and
 * analytics routes let through passes RelayedQuery, so checking parameters on arrival refuses only forgeries.
 */
describe('relayedParameters and RelayedQuery', () => {
  it.each(ANALYTICS_SHAPES)('accepts the relayed parameters of an analytics %s query', (shape) => {
    const query = analyticsQueryOf('abc123', shape, AnalyticsQueryParameters.parse(everyFilter), now);
    expect(RelayedQuery.safeParse({ shape, params: relayedParameters(query) }).error).toBeUndefined();
  });

  it.each(LOG_MODES)('accepts the relayed parameters of a %s query continuing from a cursor', (shape) => {
    const parameters = LogQueryParameters.parse({ ...everyFilter, mode: shape });
    const query = {
      shape,
      profileId: 'abc123',
      range: resolveRange(shape, parameters.from, parameters.to, now),
      filters: filtersOf(parameters, shape === 'search' ? 'substring' : 'exact'),
      limit: 1000,
      bucketSeconds: 0,
      position: { ts: now.getTime(), rowId: '9223372036854775807' },
    } as const;
    expect(RelayedQuery.safeParse({ shape, params: relayedParameters(query) }).error).toBeUndefined();
  });

  it('refuses a top_pops query of more rows than its route allows, and a search matching exactly', () => {
    const query = analyticsQueryOf('abc123', 'top_pops', AnalyticsQueryParameters.parse({}), now);
    const params = relayedParameters(query);
    expect(RelayedQuery.safeParse({ shape: 'top_pops', params: { ...params, limit: 101 } }).success).toBe(
      false,
    );
    expect(RelayedQuery.safeParse({ shape: 'top_domains', params: { ...params, limit: 1000 } }).success).toBe(
      true,
    );
    expect(RelayedQuery.safeParse({ shape: 'search', params: { ...params, bucket_s: 0 } }).success).toBe(
      false,
    );
  });
});
