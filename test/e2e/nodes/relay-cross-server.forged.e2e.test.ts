import { randomUUID } from 'node:crypto';
import { HmacKeyedHash } from '@svc/adapters';
import type { RunningServer } from '@svc/http-server';
import { NATS_TEST_URL, natsSkipReason } from '@svc/testing/nats';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../../support/accounts.js';
import { type ApiCluster, CLUSTER_SECRET, startCluster } from '../../support/api-cluster.js';
import { send } from '../../support/http.js';
import { accountWithProfile, orgIdOf } from '../../support/profiles.js';
import { openLink, type TestLink } from './link-client.js';

const REQUEST_SUBJECT = 'nodes.relay.request';
const codec = JSONCodec<unknown>();

/** Signs as a server of the deployment does: whoever holds SVC_SECRET (a leaked or buggy peer, in the tests). */
function signed(subject: string, message: object): { body: string; mac: string } {
  const body = JSON.stringify(message);
  return { body, mac: new HmacKeyedHash(CLUSTER_SECRET).mac('nodes-relay', `${subject}\n${body}`) };
}

/** The parameters a genuine tail query of `profileId` carries. */
function tailParams(profileId: string, to: Date): Record<string, unknown> {
  return {
    profile_id: profileId,
    from: null,
    to: to.toISOString(),
    devices: [],
    statuses: [],
    qname: null,
    qname_match: 'exact',
    qtypes: [],
    lists: [],
    client_ip: null,
    limit: 100,
    bucket_s: 0,
    after: null,
  };
}

/**
 * Messages on `nodes.relay.request` and `nodes.relay.reply.*` that no API server of the deployment sent (issue
 * 35): whoever reaches the bus publishes forged queries and answers. The servers refuse them (logged, dropped,
 * never answered), and the genuine relay between two servers keeps working.
 */
describe.skipIf(postgresServerSkipReason !== undefined || natsSkipReason !== undefined)(
  'forged relay messages on an open bus (issue 35)',
  () => {
    let cluster: ApiCluster;
    let first: RunningServer;
    let second: RunningServer;
    let owner: TestAccount;
    let attacker: NatsConnection;
    let link: TestLink;
    let orgId: string;
    let profileId: string;

    beforeAll(async () => {
      cluster = await startCluster('postgres', 2, { NATS_URL: NATS_TEST_URL });
      [first, second] = cluster.servers as [RunningServer, RunningServer];
      ({ account: owner, profileId } = await accountWithProfile(cluster.harness, {
        profile: { settings: { log_destination: 'self-hosted' } },
      }));
      attacker = await connect({ servers: NATS_TEST_URL, name: 'attacker' });
      orgId = await orgIdOf(first, owner);
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
      link = await openLink(second.url, (enrolled.json as { node_token: string }).node_token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: ['tail', 'top_domains'] });
      await link.next('welcome');
    }, 120_000);
    afterAll(async () => {
      link?.close();
      await attacker?.close();
      await cluster?.close();
    });

    /** Publishes `payload` as a request with a reply subject the attacker reads; what came back within 1.5 s. */
    async function forgeRequest(payload: (replySubject: string) => unknown): Promise<unknown[]> {
      const replySubject = `nodes.relay.reply.${randomUUID()}`;
      const replies = attacker.subscribe(replySubject);
      const received: unknown[] = [];
      void (async () => {
        for await (const message of replies) received.push(codec.decode(message.data));
      })();
      await attacker.flush();
      attacker.publish(REQUEST_SUBJECT, codec.encode(payload(replySubject)));
      await attacker.flush();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      replies.unsubscribe();
      return received;
    }

    /**
     * A relay request read off the bus, if it asks about this file's profile: the subject is shared by every
     * cluster on the test NATS server, and another file's requests must be neither captured nor answered.
     */
    function ownRequest(data: Uint8Array): { request_id: string; reply_subject: string } | undefined {
      const decoded = codec.decode(data) as { body?: string };
      // Requests are signed since issue 35: their body is readable, not forgeable.
      const fields = (decoded.body === undefined ? decoded : JSON.parse(decoded.body)) as {
        request_id: string;
        reply_subject: string;
        profile_id?: string;
      };
      return fields.profile_id === profileId ? fields : undefined;
    }

    function request(replySubject: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
      return {
        kind: 'request',
        request_id: randomUUID(),
        reply_subject: replySubject,
        org_id: orgId,
        profile_id: profileId,
        shape: 'tail',
        params: tailParams(profileId, cluster.harness.clock.now()),
        sent_at: cluster.harness.clock.now().getTime(),
        ...overrides,
      };
    }

    it('answers nothing to an unsigned request, as relays before issue 35 took it', async () => {
      const replies = await forgeRequest((replySubject) => {
        const { sent_at: _, kind: __, ...unsigned } = request(replySubject);
        return unsigned;
      });
      expect(replies).toEqual([]);
      expect(link.unread().filter((message) => message.type === 'query')).toEqual([]);
    });

    it('answers nothing to a request signed with another key, or whose body was changed after signing', async () => {
      const otherKey = await forgeRequest((replySubject) => {
        const body = JSON.stringify(request(replySubject));
        return {
          body,
          mac: new HmacKeyedHash('another-secret-that-is-long-enough-0123456789').mac(
            'nodes-relay',
            `${REQUEST_SUBJECT}\n${body}`,
          ),
        };
      });
      const altered = await forgeRequest((replySubject) => {
        const genuine = signed(REQUEST_SUBJECT, request(replySubject));
        return { ...genuine, body: genuine.body.replace('"limit":100', '"limit":1000') };
      });
      const noMac = await forgeRequest((replySubject) => ({ body: JSON.stringify(request(replySubject)) }));
      expect([otherKey, altered, noMac]).toEqual([[], [], []]);
      expect(link.unread().filter((message) => message.type === 'query')).toEqual([]);
    });

    it('answers nothing to a signed request older than 30 s, or asking for what the HTTP routes refuse', async () => {
      const now = cluster.harness.clock.now().getTime();
      const forged = [
        (replySubject: string) => signed(REQUEST_SUBJECT, request(replySubject, { sent_at: now - 31_000 })),
        (replySubject: string) => signed(REQUEST_SUBJECT, request(replySubject, { sent_at: now + 31_000 })),
        // More rows than a page may have.
        (replySubject: string) =>
          signed(
            REQUEST_SUBJECT,
            request(replySubject, { params: { ...tailParams(profileId, new Date(now)), limit: 1_000_000 } }),
          ),
        // A parameter no route has.
        (replySubject: string) =>
          signed(
            REQUEST_SUBJECT,
            request(replySubject, { params: { ...tailParams(profileId, new Date(now)), sql: 'SELECT 1' } }),
          ),
        // Parameters of another profile than the one the request names.
        (replySubject: string) =>
          signed(REQUEST_SUBJECT, request(replySubject, { params: tailParams('zzzzzz', new Date(now)) })),
        // A shape no route serves.
        (replySubject: string) => signed(REQUEST_SUBJECT, request(replySubject, { shape: 'raw_rows' })),
        // Replies sent somewhere else than a reply subject.
        (replySubject: string) =>
          signed(REQUEST_SUBJECT, request(replySubject, { reply_subject: 'profiles.abcdef' })),
      ];
      for (const payload of forged) expect(await forgeRequest(payload)).toEqual([]);
      expect(link.unread().filter((message) => message.type === 'query')).toEqual([]);
    });

    it('answers a request replayed from the bus once only', async () => {
      // A genuine request, captured off the open bus as the asking server sent it.
      const captured = attacker.subscribe(REQUEST_SUBJECT);
      await attacker.flush();
      const pending = send(`${first.url}/v1/profiles/${profileId}/logs`, { headers: owner.auth });
      const query = await link.next('query');
      link.send({
        type: 'query_result',
        id: query.id,
        result: { columns: [], rows: [], log_rows: [], next_cursor: null, partial: false },
      });
      expect((await pending).status).toBe(200);
      let genuine: unknown;
      for await (const message of captured) {
        if (ownRequest(message.data) === undefined) continue;
        genuine = codec.decode(message.data);
        break;
      }
      captured.unsubscribe();
      expect(await forgeRequest(() => genuine)).toEqual([]);
      // Later, once the servers have forgotten its id, it is refused for its age.
      cluster.harness.clock.advance(61_000);
      expect(await forgeRequest(() => genuine)).toEqual([]);
      expect(link.unread().filter((message) => message.type === 'query')).toEqual([]);
    });

    it('does not take a forged answer to a pending query, and takes the node’s', async () => {
      // The attacker reads each request off the bus and answers at once, before the node can.
      const requests = attacker.subscribe(REQUEST_SUBJECT);
      void (async () => {
        for await (const message of requests) {
          const own = ownRequest(message.data);
          if (own === undefined) continue;
          const { request_id, reply_subject } = own;
          const result = {
            columns: [{ name: 'qname', type: 'string' }],
            rows: [['forged.example.']],
            next_cursor: null,
            partial: false,
          };
          const forgedAnswer = {
            request_id,
            kind: 'answer',
            node_id: randomUUID(),
            result,
            sent_at: Date.now(),
          };
          // Unsigned, as before issue 35; then signed with a key that is not the deployment's.
          attacker.publish(reply_subject, codec.encode(forgedAnswer));
          const forgedBody = JSON.stringify(forgedAnswer);
          attacker.publish(
            reply_subject,
            codec.encode({
              body: forgedBody,
              mac: new HmacKeyedHash('another-secret-that-is-long-enough-0123456789').mac(
                'nodes-relay',
                `${reply_subject}\n${forgedBody}`,
              ),
            }),
          );
        }
      })();
      await attacker.flush();
      const pending = send(`${first.url}/v1/profiles/${profileId}/logs`, { headers: owner.auth });
      const query = await link.next('query');
      // The forged answers have arrived by now; the node answers after them.
      await new Promise((resolve) => setTimeout(resolve, 300));
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
      requests.unsubscribe();
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toMatchObject({ source: 'node', rows: [['far.example.']] });
    });
  },
);
