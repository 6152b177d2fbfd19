import { Ed25519ProfileSigner, generateProfileSigningKey, MemoryListArtifactStore } from '@svc/adapters';
import {
  ENROLMENT_CODE_LIFETIME_MS,
  NODE_REVOKED_SUBJECT,
  NODE_TOKEN_GRACE_SECONDS,
  NODE_TOKEN_PATTERN,
  NodeService,
} from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { codeOf, memoryWorld, ORG, OTHER_ORG, VERIFIED } from '../fixtures/memory-world.js';

const OWNER = { actor: 'account:owner' };
const AT_NODE = { clientIp: '198.51.100.7' };

/** A node service on the memory stores, with one profile of ORG and a signing key. */
async function setUp() {
  const world = await memoryWorld();
  const sut = new NodeService({
    uow: world.uow,
    profileStore: world.stores.profiles.repository(),
    devicePolicies: world.stores.devices.repository(),
    store: world.stores.nodes.repository(),
    random: world.random,
    clock: world.clock,
    cursors: world.cursors,
    keyedHash: world.keyedHash,
    signer: new Ed25519ProfileSigner([generateProfileSigningKey()]),
    presence: { isConnected: () => false },
    baseUrl: 'https://api.example/',
    lists: { versionsFor: async () => new Map(), artifacts: new MemoryListArtifactStore() },
  });
  const profile = await world.newProfile();
  return { ...world, sut, profile };
}

/** A node created and enrolled on the profile: its id and token. */
async function enrolled(context: Awaited<ReturnType<typeof setUp>>) {
  const { enrolmentCode } = await context.sut.create(VERIFIED, context.profile.id, { name: 'router' }, OWNER);
  const { node, nodeToken } = await context.sut.enrol(
    { enrolment_code: enrolmentCode, version: '1.2.0' },
    AT_NODE,
  );
  return { nodeId: node.id, token: nodeToken };
}

describe(NodeService.name, () => {
  describe('create (spec 4.13)', () => {
    it('stores a pending node whose code is kept only as a keyed hash, and audits node.created', async () => {
      const { sut, profile, stores, clock } = await setUp();
      const { node, enrolmentCode } = await sut.create(VERIFIED, profile.id, { name: 'router' }, OWNER);

      expect(enrolmentCode).toMatch(/^svcenrol_[A-Za-z0-9_-]{43}$/);
      const stored = await stores.nodes.repository().find(ORG, profile.id, node.id);
      expect(stored).toMatchObject({ state: 'pending', name: 'router', tokenLookup: null });
      expect(JSON.stringify(stored)).not.toContain(enrolmentCode);
      expect(stored?.enrolmentExpiresAt.getTime()).toBe(clock.now().getTime() + ENROLMENT_CODE_LIFETIME_MS);
      const [entry] = await stores.auditLog.recent(ORG, 10);
      expect(entry).toMatchObject({
        action: 'node.created',
        actor: 'account:owner',
        target: `profiles/${profile.id}/nodes/${node.id}`,
      });
    });

    it('refuses an account whose address is unverified with email_unverified, storing nothing', async () => {
      const { sut, profile } = await setUp();
      const code = await codeOf(
        sut.create({ orgId: ORG, emailVerifiedAt: null }, profile.id, { name: 'n' }, OWNER),
      );
      expect(code).toBe('email_unverified');
      expect((await sut.list(ORG, profile.id, 10, undefined)).nodes).toEqual([]);
    });

    it('refuses new nodes on a suspended profile with profile_suspended; listing still works', async () => {
      const { sut, profile, stores } = await setUp();
      await stores.profiles.repository().save({ ...profile, suspended: true });

      expect(await codeOf(sut.create(VERIFIED, profile.id, { name: 'n' }, OWNER))).toBe('profile_suspended');
      expect((await sut.list(ORG, profile.id, 10, undefined)).nodes).toEqual([]);
    });

    it('lists the profile’s nodes newest first, a page at a time', async () => {
      const { sut, profile, clock } = await setUp();
      for (const name of ['first', 'second', 'third']) {
        await sut.create(VERIFIED, profile.id, { name }, OWNER);
        clock.advance(1000);
      }
      const page = await sut.list(ORG, profile.id, 2, undefined);
      expect(page.nodes.map((node) => node.name)).toEqual(['third', 'second']);
      const next = await sut.list(ORG, profile.id, 2, page.next_cursor ?? undefined);
      expect(next).toMatchObject({ nodes: [{ name: 'first' }], next_cursor: null });
    });

    it("answers not_found for another organisation's profile", async () => {
      const { sut, profile } = await setUp();
      const stranger = { orgId: OTHER_ORG, emailVerifiedAt: VERIFIED.emailVerifiedAt };
      expect(await codeOf(sut.create(stranger, profile.id, { name: 'n' }, OWNER))).toBe('not_found');
      expect(await codeOf(sut.list(OTHER_ORG, profile.id, 10, undefined))).toBe('not_found');
    });
  });

  describe('enrol (spec 5.1)', () => {
    it('exchanges the code for a svcnode_ token that authenticates the node', async () => {
      const context = await setUp();
      const { nodeId, token } = await enrolled(context);

      expect(token).toMatch(NODE_TOKEN_PATTERN);
      const stored = await context.sut.get(ORG, context.profile.id, nodeId);
      expect(stored).toMatchObject({ state: 'enrolled', softwareVersion: '1.2.0' });
      expect(JSON.stringify(stored)).not.toContain(token);
      expect((await context.sut.authenticate(token)).node.id).toBe(nodeId);
    });

    it('refuses a replayed code with token_used, leaving the first token working', async () => {
      const context = await setUp();
      const { enrolmentCode } = await context.sut.create(VERIFIED, context.profile.id, { name: 'n' }, OWNER);
      const first = await context.sut.enrol({ enrolment_code: enrolmentCode }, AT_NODE);

      expect(await codeOf(context.sut.enrol({ enrolment_code: enrolmentCode }, AT_NODE))).toBe('token_used');
      expect((await context.sut.authenticate(first.nodeToken)).node.id).toBe(first.node.id);
    });

    it('refuses a code past its 24 hours with token_expired; the node stays pending', async () => {
      const context = await setUp();
      const { node, enrolmentCode } = await context.sut.create(
        VERIFIED,
        context.profile.id,
        { name: 'n' },
        OWNER,
      );
      context.clock.advance(ENROLMENT_CODE_LIFETIME_MS);

      expect(await codeOf(context.sut.enrol({ enrolment_code: enrolmentCode }, AT_NODE))).toBe(
        'token_expired',
      );
      expect((await context.sut.get(ORG, context.profile.id, node.id)).state).toBe('pending');
    });

    it('refuses an unknown or malformed code with invalid_token', async () => {
      const { sut } = await setUp();
      const unknown = `svcenrol_${'A'.repeat(43)}`;
      expect(await codeOf(sut.enrol({ enrolment_code: unknown }, AT_NODE))).toBe('invalid_token');
      expect(await codeOf(sut.enrol({ enrolment_code: 'not a code' }, AT_NODE))).toBe('invalid_token');
    });
  });

  describe('authenticate and rotate (spec 3)', () => {
    it('refuses an unknown or malformed token with unauthenticated', async () => {
      const { sut } = await setUp();
      expect(await codeOf(sut.authenticate(`svcnode_${'a'.repeat(52)}`))).toBe('unauthenticated');
      expect(await codeOf(sut.authenticate('svc_not_a_node_token'))).toBe('unauthenticated');
    });

    it('keeps the previous token working until 600 s after the new one is first used', async () => {
      const context = await setUp();
      const { token } = await enrolled(context);
      const rotated = await context.sut.rotate(await context.sut.authenticate(token), OWNER);
      expect(rotated.previous_valid_s).toBe(NODE_TOKEN_GRACE_SECONDS);

      // The grace has not started: the old token still works however long the node waits.
      context.clock.advance(3_600_000);
      expect((await context.sut.authenticate(token)).viaPreviousToken).toBe(true);
      await context.sut.authenticate(rotated.node_token);
      context.clock.advance(NODE_TOKEN_GRACE_SECONDS * 1000 - 1);
      expect((await context.sut.authenticate(token)).viaPreviousToken).toBe(true);
      context.clock.advance(1);
      expect(await codeOf(context.sut.authenticate(token))).toBe('unauthenticated');
      expect((await context.sut.authenticate(rotated.node_token)).viaPreviousToken).toBe(false);
    });

    it('refuses a rotation asked with the replaced token with node_token_superseded', async () => {
      const context = await setUp();
      const { token } = await enrolled(context);
      await context.sut.rotate(await context.sut.authenticate(token), OWNER);

      const viaOld = await context.sut.authenticate(token);
      expect(await codeOf(context.sut.rotate(viaOld, OWNER))).toBe('node_token_superseded');
    });

    it('stops a token replaced twice at once', async () => {
      const context = await setUp();
      const { token } = await enrolled(context);
      const second = await context.sut.rotate(await context.sut.authenticate(token), OWNER);
      await context.sut.rotate(await context.sut.authenticate(second.node_token), OWNER);

      expect(await codeOf(context.sut.authenticate(token))).toBe('unauthenticated');
    });
  });

  describe('revoke', () => {
    it('revokes for good: the token answers node_revoked, again is a no-op, one nodes.revoked is published', async () => {
      const context = await setUp();
      const { nodeId, token } = await enrolled(context);
      await context.sut.revoke(ORG, context.profile.id, nodeId, OWNER);
      await context.sut.revoke(ORG, context.profile.id, nodeId, OWNER);

      expect(await codeOf(context.sut.authenticate(token))).toBe('node_revoked');
      expect((await context.sut.get(ORG, context.profile.id, nodeId)).state).toBe('revoked');
      expect((await context.delivered()).filter((subject) => subject === NODE_REVOKED_SUBJECT)).toHaveLength(
        1,
      );
      const actions = (await context.stores.auditLog.recent(ORG, 10)).map((entry) => entry.action);
      expect(actions.filter((action) => action === 'node.revoked')).toHaveLength(1);
    });

    it("answers not_found for another organisation's node and leaves it working", async () => {
      const context = await setUp();
      const { nodeId, token } = await enrolled(context);

      expect(await codeOf(context.sut.revoke(OTHER_ORG, context.profile.id, nodeId, OWNER))).toBe(
        'not_found',
      );
      expect(await codeOf(context.sut.get(OTHER_ORG, context.profile.id, nodeId))).toBe('not_found');
      expect((await context.sut.authenticate(token)).node.state).toBe('enrolled');
    });

    it('lets a node revoke itself, audited as the node', async () => {
      const context = await setUp();
      const { nodeId, token } = await enrolled(context);
      await context.sut.revokeSelf(nodeId, { actor: `node:${nodeId}` });

      expect(await codeOf(context.sut.authenticate(token))).toBe('node_revoked');
      const [entry] = await context.stores.auditLog.recent(ORG, 1);
      expect(entry).toMatchObject({ action: 'node.revoked', actor: `node:${nodeId}` });
    });

    it('refuses to delete a profile with an enrolled node, and revoking it frees the profile', async () => {
      const context = await setUp();
      const { nodeId } = await enrolled(context);

      expect(await codeOf(context.profiles.delete(ORG, context.profile.id))).toBe('profile_not_empty');
      await context.sut.revoke(ORG, context.profile.id, nodeId, OWNER);
      await context.profiles.delete(ORG, context.profile.id);
      expect(await codeOf(context.sut.get(ORG, context.profile.id, nodeId))).toBe('not_found');
    });

    it('lets a profile with only pending nodes be deleted', async () => {
      const context = await setUp();
      await context.sut.create(VERIFIED, context.profile.id, { name: 'never enrolled' }, OWNER);
      await context.profiles.delete(ORG, context.profile.id);
      expect(await codeOf(context.sut.list(ORG, context.profile.id, 10, undefined))).toBe('not_found');
    });
  });

  describe('profile document', () => {
    it('signs the document of the node’s own profile with the announced key', async () => {
      const context = await setUp();
      const { token } = await enrolled(context);
      const { node } = await context.sut.authenticate(token);
      const document = await context.sut.profileDocument(node);

      expect(document).toMatchObject({
        id: context.profile.id,
        profile_key_id: context.sut.profileKeys()[0]?.key_id,
        lists: { url: 'https://api.example/v1/nodes/self/lists' },
      });
      expect(await codeOf(context.sut.listArtifact(node, 'f'.repeat(64)))).toBe('not_found');
    });
  });
});
