import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

/**
 * Query logs without a columnar store (the memory harness configures none): what the cloud store would answer
 * is 501 not_implemented; the other destinations still route (spec 4.6 and its rule 2).
 */
describe('query logs without a columnar store (spec 4.6)', () => {
  let api: ApiHarness;
  let owner: TestAccount;

  const createProfile = async (destination: string): Promise<string> => {
    const created = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: { settings: { log_destination: destination } },
    });
    return (created.json as { id: string }).id;
  };

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('cloud and both answer 501 not_implemented, counts_by_status included', async () => {
    for (const destination of ['cloud', 'both']) {
      const id = await createProfile(destination);
      for (const path of [
        'logs',
        'logs?mode=search',
        'analytics/top_domains',
        'analytics/counts_by_status',
      ]) {
        const answer = await send(`${api.url}/v1/profiles/${id}/${path}`, { headers: owner.auth });
        expect(answer.status, `${destination} ${path}`).toBe(501);
        expect(problemOf(answer).code).toBe('not_implemented');
      }
    }
  });

  it('none answers empty results with source none, timeline and counts_by_status too (rule 2)', async () => {
    const id = await createProfile('none');
    for (const path of ['logs', 'analytics/counts_by_status', 'analytics/timeline', 'analytics/top_pops']) {
      const answer = await send(`${api.url}/v1/profiles/${id}/${path}`, { headers: owner.auth });
      expect(answer.status, path).toBe(200);
      expect(answer.json).toMatchObject({ source: 'none', rows: [], partial: false, next_cursor: null });
    }
  });

  it('self-hosted is relayed to the node: 503 node_offline with Retry-After while none is connected', async () => {
    const id = await createProfile('self-hosted');
    const answer = await send(`${api.url}/v1/profiles/${id}/analytics/timeline`, { headers: owner.auth });
    expect(answer.status).toBe(503);
    expect(problemOf(answer)).toMatchObject({ code: 'node_offline', retry_after: 30 });
    expect(answer.headers['retry-after']).toBe('30');
  });

  it('validation comes before routing: 422 validation_failed naming the parameter', async () => {
    const id = await createProfile('cloud');
    const answer = await send(`${api.url}/v1/profiles/${id}/logs?limit=abc`, { headers: owner.auth });
    expect(answer.status).toBe(422);
    expect(problemOf(answer).errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
  });

  it('an unknown time zone is 422 validation_failed naming tz, before routing (issue 38)', async () => {
    const id = await createProfile('none');
    for (const path of ['logs?tz=Europe/Atlantis', 'analytics/timeline?tz=UTC%2B1']) {
      const answer = await send(`${api.url}/v1/profiles/${id}/${path}`, { headers: owner.auth });
      expect(answer.status, path).toBe(422);
      expect(problemOf(answer).errors).toEqual([{ field: 'tz', message: expect.any(String) }]);
    }
    const known = await send(`${api.url}/v1/profiles/${id}/analytics/timeline?tz=Asia/Kathmandu`, {
      headers: owner.auth,
    });
    expect(known.status).toBe(200);
  });
});
