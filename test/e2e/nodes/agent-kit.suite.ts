import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  enrolNode,
  FileCredentialStore,
  MemoryCredentialStore,
  NodeAgent,
  type NodeQueryAnswer,
  ProfileSignatureError,
  UnsupportedShapeError,
  verifyProfileDocument,
} from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createProfile } from '../../support/profiles.js';
import { openLink } from './link-client.js';

const ANSWER: NodeQueryAnswer = {
  columns: [{ name: 'qname', type: 'string' }],
  rows: [['kit.example.']],
  next_cursor: null,
  partial: false,
};

/**
 * packages/node-agent-kit against the real server (spec 4.13, 5.1): enrolment persisted to a file, signed
 * profile documents verified and applied (and refused when tampered with), profile changes followed over the
 * link, relayed queries answered through the handler, token rotation persisted, reconnection after the link
 * is taken over, and a stop on revocation.
 */
export function runAgentKitSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`node-agent-kit on ${storage} (4.13)`, () => {
    let api: ApiHarness;
    let owner: TestAccount;
    const dirs: string[] = [];

    beforeAll(async () => {
      api = await startApi(storage);
      owner = await createAccount(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    const selfHostedProfile = (): Promise<string> =>
      createProfile(api, owner, { settings: { log_destination: 'self-hosted' } });
    const enrolmentCode = async (profileId: string): Promise<string> => {
      const answer = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'kit' },
      });
      return (answer.json as { enrolment_code: string }).enrolment_code;
    };
    const startAgent = async (
      profileId: string,
      extra: Partial<ConstructorParameters<typeof NodeAgent>[0]> = {},
    ) => {
      const store = new MemoryCredentialStore();
      await enrolNode({
        baseUrl: api.url,
        enrolmentCode: await enrolmentCode(profileId),
        version: '1.2.3',
        shapes: ['tail'],
        store,
      });
      const applied: NodeProfileDocument[] = [];
      const agent = new NodeAgent({
        baseUrl: api.url,
        store,
        version: '1.2.3',
        shapes: ['tail'],
        handler: {
          answer: async (shape) => {
            if (shape !== 'tail') throw new UnsupportedShapeError(shape);
            return ANSWER;
          },
        },
        onProfile: (document) => {
          applied.push(document);
        },
        backoff: { initialMs: 20, maxMs: 200 },
        ...extra,
      });
      await agent.start();
      return { agent, store, applied };
    };

    it('enrols and persists the token to an owner-only file', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-node-'));
      dirs.push(dir);
      const path = join(dir, 'node', 'credentials.json');
      const store = new FileCredentialStore(path);
      const profileId = await selfHostedProfile();
      const credentials = await enrolNode({
        baseUrl: api.url,
        enrolmentCode: await enrolmentCode(profileId),
        version: '1.0.0',
        shapes: ['tail'],
        store,
      });
      expect(credentials.nodeToken).toMatch(/^svcnode_/);
      expect(await store.load()).toEqual(credentials);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    });

    it('applies the verified profile, follows changes over the link and answers relayed queries', async () => {
      const profileId = await selfHostedProfile();
      const { agent, applied } = await startAgent(profileId);
      expect(agent.connected).toBe(true);
      expect(applied.map((document) => document.version)).toEqual([1]);
      const patched = await send(`${api.url}/v1/profiles/${profileId}`, {
        method: 'PATCH',
        headers: owner.auth,
        body: { name: 'changed' },
      });
      expect(patched.status).toBe(200);
      await eventually(
        async () => agent.profileVersion,
        (version) => version === 2,
      );
      expect(applied.at(-1)?.version).toBe(2);
      const logs = await send(`${api.url}/v1/profiles/${profileId}/logs`, { headers: owner.auth });
      expect(logs.status, logs.text).toBe(200);
      expect(logs.json).toMatchObject({ source: 'node', rows: ANSWER.rows, partial: false });
      // Settled without storing: a self-hosted profile's node rows are not kept in the cloud.
      const row = {
        ts: api.clock.now().toISOString(),
        row_id: '1',
        transport: 'doh',
        qname: 'a.example.',
        qtype: 1,
        status: 'allowed',
        rcode: 0,
      };
      expect(await agent.sendLogBatch([row])).toBe(0);
      await agent.stop();
    });

    it('refuses a document whose signature does not verify, or signed by an unknown key', async () => {
      const profileId = await selfHostedProfile();
      const { agent, store } = await startAgent(profileId);
      const credentials = await store.load();
      const document = await agent.client().nodes.self.profile();
      const keys = credentials?.profileKeys ?? [];
      expect(verifyProfileDocument(document, keys)).toBe(document);
      expect(() => verifyProfileDocument({ ...document, name: 'evil' } as NodeProfileDocument, keys)).toThrow(
        ProfileSignatureError,
      );
      expect(() =>
        verifyProfileDocument(
          { ...document, rules: { deny: [], allow: ['evil.example'], rewrites: [] } },
          keys,
        ),
      ).toThrow(ProfileSignatureError);
      expect(() => verifyProfileDocument(document, [])).toThrow(ProfileSignatureError);
      const { profile_signature: _signature, ...unsigned } = document;
      expect(() => verifyProfileDocument(unsigned, keys)).toThrow(ProfileSignatureError);
      await agent.stop();
    });

    it('rotates the token and persists the new one; the old one then stops after its grace', async () => {
      const profileId = await selfHostedProfile();
      const { agent, store } = await startAgent(profileId);
      const before = (await store.load())?.nodeToken ?? '';
      await agent.rotateToken();
      const after = (await store.load())?.nodeToken ?? '';
      expect(after).not.toBe(before);
      api.clock.advance(600_000);
      const old = await send(`${api.url}/v1/nodes/self`, { headers: { authorization: `Bearer ${before}` } });
      expect(old.status).toBe(401);
      expect((await agent.client().nodes.self.get()).token_rotated_at).not.toBeNull();
      await agent.stop();
    });

    it('reconnects with backoff after its link is closed, and stops when revoked', async () => {
      const profileId = await selfHostedProfile();
      let revoked = false;
      const { agent, store } = await startAgent(profileId, { onRevoked: () => (revoked = true) });
      const token = (await store.load())?.nodeToken ?? '';
      // A second link of the same node takes over (4002); the agent comes back and takes it over in turn.
      const intruder = await openLink(api.url, token);
      intruder.send({ type: 'hello', protocol: 1, version: '0.0.1', shapes: [] });
      await intruder.next('welcome');
      expect(await intruder.closed).toBe(4002);
      await eventually(
        async () => agent.connected,
        (connected) => connected,
      );
      const nodeId = (await agent.client().nodes.self.get()).id;
      const revokeAnswer = await send(`${api.url}/v1/profiles/${profileId}/nodes/${nodeId}`, {
        method: 'DELETE',
        headers: owner.auth,
      });
      expect(revokeAnswer.status).toBe(204);
      await eventually(
        async () => revoked,
        (value) => value,
      );
      expect(agent.connected).toBe(false);
      await agent.stop();
    });
  });
}
