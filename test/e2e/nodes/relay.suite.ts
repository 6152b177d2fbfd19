import { type NodeLinkHub, NodeLinkHubToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { createProfile } from '../../support/profiles.js';
import { openLink, type TestLink } from './link-client.js';

const TAIL_RESULT = {
  columns: [
    { name: 'ts', type: 'time' },
    { name: 'qname', type: 'string' },
  ],
  rows: [['2026-11-23T00:00:00.000Z', 'example.com.']],
  next_cursor: null,
  partial: true,
  partial_reason: 'timeout',
};

/**
 * Relayed log and analytics queries of self-hosted profiles (spec 4.6, 7, 8) through GET …/logs and
 * …/analytics and a real WebSocket node: node_offline with Retry-After, the node's answer with source `node`,
 * partial answers, shape_unsupported, node_error (failure and a dropped link), and at the hub itself
 * node_busy beyond four in flight (one organisation's queries cannot reach it through HTTP: its own limit of
 * four concurrent queries per API server comes first).
 */
export function runRelaySuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`relayed queries on ${storage} (spec 4.6, 7)`, () => {
    let api: ApiHarness;
    let owner: TestAccount;

    beforeAll(async () => {
      api = await startApi(storage);
      owner = await createAccount(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    /** A self-hosted profile with an enrolled node; returns the profile and the node's token. */
    const selfHostedProfile = async () => {
      const profileId = await createProfile(api, owner, { settings: { log_destination: 'self-hosted' } });
      const node = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'relay' },
      });
      const code = (node.json as { enrolment_code: string }).enrolment_code;
      const enrolled = await send(`${api.url}/v1/nodes/enrol`, {
        method: 'POST',
        body: { enrolment_code: code },
      });
      const body = enrolled.json as { node: { id: string }; node_token: string };
      return { profileId, nodeId: body.node.id, token: body.node_token };
    };
    const connect = async (token: string, shapes: string[]): Promise<TestLink> => {
      const link = await openLink(api.url, token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes });
      await link.next('welcome');
      return link;
    };
    const logs = (profileId: string, query = '') =>
      send(`${api.url}/v1/profiles/${profileId}/logs${query}`, { headers: owner.auth });

    it('answers 503 node_offline with Retry-After while no node is connected', async () => {
      const { profileId } = await selfHostedProfile();
      const problem = expectProblem(await logs(profileId), 503, 'node_offline');
      expect(problem.retry_after).toBe(30);
      expect((await logs(profileId)).headers['retry-after']).toBe('30');
    });

    it('relays a tail to the node and answers its result with source node, partial kept', async () => {
      const { profileId, nodeId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      const pending = logs(profileId, '?limit=5&status=blocked');
      const query = await link.next('query');
      expect(query).toMatchObject({ shape: 'tail', timeout_ms: 10_000 });
      expect(query.params).toMatchObject({
        profile_id: profileId,
        limit: 5,
        statuses: ['blocked'],
        after: null,
      });
      link.send({ type: 'query_result', id: query.id, result: TAIL_RESULT });
      const answer = await pending;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toEqual({
        shape: 'tail',
        source: 'node',
        node: nodeId,
        columns: TAIL_RESULT.columns,
        rows: TAIL_RESULT.rows,
        next_cursor: null,
        partial: true,
        partial_reason: 'timeout',
      });
      link.close();
    });

    it('fills the derived columns, the node and the profile of log rows a node sends as recorded (2.11)', async () => {
      const { profileId, nodeId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      const pending = logs(profileId);
      const query = await link.next('query');
      link.send({
        type: 'query_result',
        id: query.id,
        result: {
          columns: [],
          rows: [],
          next_cursor: null,
          partial: false,
          log_rows: [
            {
              ts: '2026-11-23T01:02:03.004Z',
              row_id: '7',
              device_id: 'tv',
              device_name: 'Living room TV',
              client_ip: '192.0.2.1',
              transport: 'doh',
              qname: 'ads.example.',
              qtype: 1,
              status: 'blocked',
              reason_list_id: 3,
              reason_list_name: 'Ads list',
              rcode: 3,
            },
          ],
        },
      });
      const answer = await pending;
      expect(answer.status, answer.text).toBe(200);
      const body = answer.json as { columns: { name: string }[]; rows: unknown[][] };
      const names = body.columns.map((column) => column.name);
      const row = Object.fromEntries(names.map((name, index) => [name, body.rows[0]?.[index]]));
      expect(row).toMatchObject({
        ts: '2026-11-23T01:02:03.004Z',
        source: 'node',
        pop: 'node',
        node: nodeId,
        profile_id: profileId,
        device_name: 'Living room TV',
        status: 'blocked',
        reason: 'Ads list',
        reason_code: 'list',
        ede_code: 17,
      });
      link.close();
    });

    it('seals the node’s next_after into next_cursor, and relays the cursor’s position back to the node', async () => {
      const { profileId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      const first = logs(profileId, '?limit=1');
      const firstQuery = await link.next('query');
      link.send({
        type: 'query_result',
        id: firstQuery.id,
        result: { ...TAIL_RESULT, partial: false, next_after: { ts: 1_795_000_000_000, row_id: '42' } },
      });
      const page = (await first).json as { next_cursor: string | null };
      expect(page.next_cursor).toEqual(expect.any(String));
      const second = logs(profileId, `?limit=1&cursor=${encodeURIComponent(page.next_cursor ?? '')}`);
      const secondQuery = await link.next('query');
      expect((secondQuery.params as { after: unknown }).after).toEqual({
        ts: 1_795_000_000_000,
        row_id: '42',
      });
      link.send({ type: 'query_result', id: secondQuery.id, result: { ...TAIL_RESULT, partial: false } });
      expect(((await second).json as { next_cursor: string | null }).next_cursor).toBeNull();
      link.close();
    });

    it('answers partial node_reconnecting with no rows while a dropped node is expected back (2.11)', async () => {
      const { profileId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      link.close();
      await link.closed;
      const answer = await logs(profileId);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toMatchObject({
        source: 'node',
        rows: [],
        partial: true,
        partial_reason: 'node_reconnecting',
      });
      const back = await connect(token, ['tail']);
      const pending = logs(profileId);
      const query = await back.next('query');
      back.send({ type: 'query_result', id: query.id, result: { ...TAIL_RESULT, partial: false } });
      expect((await pending).json).toMatchObject({ partial: false, rows: TAIL_RESULT.rows });
      back.close();
    });

    it('answers 501 shape_unsupported for a shape the node did not report or refused', async () => {
      const { profileId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      expectProblem(
        await send(`${api.url}/v1/profiles/${profileId}/analytics/top_pops`, { headers: owner.auth }),
        501,
        'shape_unsupported',
      );
      const pending = logs(profileId);
      const query = await link.next('query');
      link.send({ type: 'query_error', id: query.id, code: 'shape_unsupported' });
      expectProblem(await pending, 501, 'shape_unsupported');
      link.close();
    });

    it('answers 502 node_error when the node fails, answers garbage, or drops the link mid-query', async () => {
      const { profileId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      const failing = logs(profileId);
      const first = await link.next('query');
      link.send({ type: 'query_error', id: first.id, code: 'disk_full', detail: 'no space' });
      expectProblem(await failing, 502, 'node_error');
      const garbage = logs(profileId);
      const second = await link.next('query');
      link.send({
        type: 'query_result',
        id: second.id,
        result: { ...TAIL_RESULT, rows: [[{ nested: true }]] },
      });
      expectProblem(await garbage, 502, 'node_error');
      const dropped = logs(profileId);
      await link.next('query');
      link.close();
      expectProblem(await dropped, 502, 'node_error');
    });

    it('answers 504 node_timeout when the node does not answer within 10 s, and tells it to cancel', async () => {
      const { profileId, token } = await selfHostedProfile();
      const link = await connect(token, ['tail']);
      const pending = logs(profileId);
      const query = await link.next('query');
      expectProblem(await pending, 504, 'node_timeout');
      expect(await link.next('cancel')).toEqual({ type: 'cancel', id: query.id });
      link.close();
    }, 20_000);

    it('refuses a fifth query in flight on one node with 503 node_busy (8)', async () => {
      const { profileId, token } = await selfHostedProfile();
      const me = await send(`${api.url}/v1/auth/me`, { headers: owner.auth });
      const orgId = (me.json as { account: { org_id: string } }).account.org_id;
      const link = await connect(token, ['tail']);
      const hub = await api.container.getAsync<NodeLinkHub>(NodeLinkHubToken);
      const inFlight = [1, 2, 3, 4].map(() => hub.relay(orgId, profileId, 'tail', {}));
      await expect(hub.relay(orgId, profileId, 'tail', {})).rejects.toMatchObject({ code: 'node_busy' });
      const queries = [
        await link.next('query'),
        await link.next('query'),
        await link.next('query'),
        await link.next('query'),
      ];
      for (const query of queries) link.send({ type: 'query_result', id: query.id, result: TAIL_RESULT });
      const answers = await Promise.all(inFlight);
      expect(answers.map((answer) => answer.result.rows)).toEqual([1, 2, 3, 4].map(() => TAIL_RESULT.rows));
      link.close();
    });
  });
}
