import type { RunningServer } from '@svc/http-server';
import { NATS_TEST_URL, natsSkipReason } from '@svc/testing/nats';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiCluster, startCluster } from '../../support/api-cluster.js';
import { problemOf, send } from '../../support/http.js';
import { openLink } from './link-client.js';

/**
 * Two API servers on one PostgreSQL database and one NATS server (issue 8, spec 4.6): a query arriving at the
 * server that does not hold the node's link reaches it over the bus; with no link anywhere it is 503
 * node_offline.
 */
describe.skipIf(postgresServerSkipReason !== undefined || natsSkipReason !== undefined)(
  'relayed queries across API servers over NATS (4.6)',
  () => {
    let cluster: ApiCluster;
    let first: RunningServer;
    let second: RunningServer;
    let owner: TestAccount;

    beforeAll(async () => {
      cluster = await startCluster('postgres', 2, { NATS_URL: NATS_TEST_URL });
      [first, second] = cluster.servers as [RunningServer, RunningServer];
      const harness = cluster.harness;
      owner = await createAccount(harness);
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
    });

    it('answers through the server holding the link, and node_offline when no server holds one', async () => {
      const profile = await send(`${first.url}/v1/profiles`, {
        method: 'POST',
        headers: owner.auth,
        body: { settings: { log_destination: 'self-hosted' } },
      });
      const profileId = (profile.json as { id: string }).id;
      const created = await send(`${first.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'far' },
      });
      const code = (created.json as { enrolment_code: string }).enrolment_code;
      const enrolled = await send(`${first.url}/v1/nodes/enrol`, {
        method: 'POST',
        body: { enrolment_code: code },
      });
      const { node, node_token } = enrolled.json as { node: { id: string }; node_token: string };

      const offline = await send(`${first.url}/v1/profiles/${profileId}/logs`, { headers: owner.auth });
      expect(offline.status).toBe(503);
      expect(problemOf(offline).code).toBe('node_offline');

      const link = await openLink(second.url, node_token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: ['tail'] });
      await link.next('welcome');
      const pending = send(`${first.url}/v1/profiles/${profileId}/logs`, { headers: owner.auth });
      const query = await link.next('query');
      link.send({
        type: 'query_result',
        id: query.id,
        result: {
          columns: [{ name: 'qname', type: 'string' }],
          rows: [['far.example.']],
          next_cursor: null,
          partial: false,
        },
      });
      const answer = await pending;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toMatchObject({ source: 'node', node: node.id, rows: [['far.example.']] });

      const failing = send(`${first.url}/v1/profiles/${profileId}/logs`, { headers: owner.auth });
      const secondQuery = await link.next('query');
      link.send({ type: 'query_error', id: secondQuery.id, code: 'disk_full' });
      const failed = await failing;
      expect(failed.status).toBe(502);
      expect(problemOf(failed).code).toBe('node_error');
      link.close();
    });
  },
);
