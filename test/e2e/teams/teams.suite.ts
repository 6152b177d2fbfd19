import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { call, invitationTokenFor, joinAs } from '../../support/members.js';

const codeOf = (answer: { json: unknown }) => (answer.json as { code?: string }).code;
const sessionOf = (account: TestAccount) => ({ cookie: `svc_session=${account.cookie}` });

/** Teams end to end on `storage` (issue 39): the flow and its abuse cases through raw HTTP. */
export function teamsSuite(storage: HarnessStorage): void {
  describe(`teams on ${storage} (issue 39): members, roles, invitations and organisation switching`, () => {
    let api: ApiHarness;
    let owner: TestAccount;
    let ownerSession: Record<string, string>;
    let ownerOrg: string;
    let profileId: string;

    beforeAll(async () => {
      api = await startApi(storage);
      owner = await createAccount(api);
      ownerSession = sessionOf(owner);
      const me = await call(api, 'GET', '/v1/auth/me', ownerSession);
      ownerOrg = (me.json as { account: { org_id: string } }).account.org_id;
      const created = await call(api, 'POST', '/v1/profiles', owner.auth, { name: 'Family' });
      profileId = (created.json as { id: string }).id;
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    it('an invited account joins with its role, acts in the organisation and sees its profiles', async () => {
      // Members are listed in the order they joined: a second later than the owner, not in the same instant
      // (where the order falls to the account ids).
      api.clock.advance(1_000);
      const viewer = await joinAs(api, ownerSession, 'viewer');
      const me = await call(api, 'GET', '/v1/auth/me', viewer.session);
      expect(me.json).toMatchObject({ account: { org_id: ownerOrg, role: 'viewer', email: viewer.email } });
      expect((await call(api, 'GET', `/v1/profiles/${profileId}`, viewer.session)).status).toBe(200);
      const members = await call(api, 'GET', '/v1/org/members', ownerSession);
      expect(members.json).toMatchObject({
        members: [
          { email: owner.email, role: 'owner' },
          { email: viewer.email, role: 'viewer', id: viewer.id },
        ],
      });
      const mine = await call(api, 'GET', '/v1/auth/me/organisations', viewer.session);
      const organisations = (
        mine.json as { organisations: { org_id: string; role: string; current: boolean }[] }
      ).organisations;
      expect(organisations).toHaveLength(2);
      expect(organisations.find((row) => row.current)).toMatchObject({ org_id: ownerOrg, role: 'viewer' });
    });

    it('a viewer changes nothing: 403 insufficient_role, even through a token with profiles:write', async () => {
      const viewer = await joinAs(api, ownerSession, 'viewer');
      const write = await call(api, 'PATCH', `/v1/profiles/${profileId}`, viewer.session, { name: 'Mine' });
      expect(write.status).toBe(403);
      expect(codeOf(write)).toBe('insufficient_role');
      const created = await call(api, 'POST', '/v1/tokens', viewer.session, {
        name: 'writer',
        scopes: ['profiles:read', 'profiles:write'],
      });
      expect(created.status).toBe(201);
      const token = { authorization: `Bearer ${(created.json as { secret: string }).secret}` };
      const byToken = await call(api, 'PATCH', `/v1/profiles/${profileId}`, token, { name: 'Mine' });
      expect(byToken.status).toBe(403);
      expect(codeOf(byToken)).toBe('insufficient_role');
      expect((await call(api, 'GET', `/v1/profiles/${profileId}`, token)).status).toBe(200);
    });

    it('an editor cannot promote themselves, and an admin cannot touch the owner', async () => {
      const editor = await joinAs(api, ownerSession, 'editor');
      const promote = await call(api, 'PATCH', `/v1/org/members/${editor.id}`, editor.session, {
        role: 'admin',
      });
      expect(promote.status).toBe(403);
      expect(codeOf(promote)).toBe('insufficient_role');
      const admin = await joinAs(api, ownerSession, 'admin');
      const ownerId = (
        (await call(api, 'GET', '/v1/auth/me', ownerSession)).json as { account: { id: string } }
      ).account.id;
      const removeOwner = await call(api, 'DELETE', `/v1/org/members/${ownerId}`, admin.session);
      expect(removeOwner.status).toBe(403);
      expect(codeOf(removeOwner)).toBe('insufficient_role');
      const demoteOwner = await call(api, 'PATCH', `/v1/org/members/${ownerId}`, admin.session, {
        role: 'viewer',
      });
      expect(codeOf(demoteOwner)).toBe('insufficient_role');
      const giveOwnership = await call(api, 'PATCH', `/v1/org/members/${editor.id}`, admin.session, {
        role: 'owner',
      });
      expect(giveOwnership.status).toBe(422);
    });

    it('the last owner cannot be demoted or leave: 409 last_owner, organisation_has_members', async () => {
      const ownerId = (
        (await call(api, 'GET', '/v1/auth/me', ownerSession)).json as { account: { id: string } }
      ).account.id;
      const demote = await call(api, 'PATCH', `/v1/org/members/${ownerId}`, ownerSession, { role: 'admin' });
      expect(demote.status).toBe(409);
      expect(codeOf(demote)).toBe('last_owner');
      const leave = await call(api, 'DELETE', `/v1/org/members/${ownerId}`, ownerSession);
      expect(leave.status).toBe(409);
      expect(codeOf(leave)).toBe('organisation_has_members');
      const deleteAccount = await call(api, 'DELETE', '/v1/auth/me', ownerSession);
      expect(deleteAccount.status).toBe(409);
      expect(codeOf(deleteAccount)).toBe('organisation_has_members');
    });

    it('lowering a role narrows the member’s session and tokens at once', async () => {
      const editor = await joinAs(api, ownerSession, 'editor');
      const created = await call(api, 'POST', '/v1/tokens', editor.session, {
        name: 'editor',
        scopes: ['profiles:read', 'profiles:write'],
      });
      const token = { authorization: `Bearer ${(created.json as { secret: string }).secret}` };
      expect((await call(api, 'PATCH', `/v1/profiles/${profileId}`, token, { name: 'Edited' })).status).toBe(
        200,
      );
      const lowered = await call(api, 'PATCH', `/v1/org/members/${editor.id}`, ownerSession, {
        role: 'viewer',
      });
      expect(lowered.json).toMatchObject({ id: editor.id, role: 'viewer' });
      expect(codeOf(await call(api, 'PATCH', `/v1/profiles/${profileId}`, token, { name: 'Again' }))).toBe(
        'insufficient_role',
      );
      expect(
        codeOf(await call(api, 'PATCH', `/v1/profiles/${profileId}`, editor.session, { name: 'Again' })),
      ).toBe('insufficient_role');
    });

    it('a removed member falls back to their own organisation; the other’s resources are 404 and their tokens dead', async () => {
      const editor = await joinAs(api, ownerSession, 'editor');
      const created = await call(api, 'POST', '/v1/tokens', editor.session, {
        name: 'editor',
        scopes: ['profiles:read'],
      });
      const token = { authorization: `Bearer ${(created.json as { secret: string }).secret}` };
      expect((await call(api, 'DELETE', `/v1/org/members/${editor.id}`, ownerSession)).status).toBe(204);
      const me = await call(api, 'GET', '/v1/auth/me', editor.session);
      expect(me.json).toMatchObject({ account: { role: 'owner' } });
      expect((me.json as { account: { org_id: string } }).account.org_id).not.toBe(ownerOrg);
      expect((await call(api, 'GET', `/v1/profiles/${profileId}`, editor.session)).status).toBe(404);
      expect((await call(api, 'GET', `/v1/profiles/${profileId}`, token)).status).toBe(401);
      const back = await call(api, 'PUT', '/v1/auth/me/organisation', editor.session, { org_id: ownerOrg });
      expect(back.status).toBe(404);
    });

    it('a member leaves an organisation; the owner cannot leave their own while members remain', async () => {
      const viewer = await joinAs(api, ownerSession, 'viewer');
      expect(
        (await call(api, 'DELETE', `/v1/auth/me/organisations/${ownerOrg}`, viewer.session)).status,
      ).toBe(204);
      expect((await call(api, 'GET', `/v1/profiles/${profileId}`, viewer.session)).status).toBe(404);
      const members = (await call(api, 'GET', '/v1/org/members', ownerSession)).json as {
        members: { id: string }[];
      };
      expect(members.members.map((member) => member.id)).not.toContain(viewer.id);
      const ownerLeaves = await call(api, 'DELETE', `/v1/auth/me/organisations/${ownerOrg}`, ownerSession);
      expect(ownerLeaves.status).toBe(409);
      expect(codeOf(ownerLeaves)).toBe('organisation_has_members');
    });

    it('an owner who handed their organisation over deletes their account: its profiles stay with the new owner', async () => {
      const founder = await createAccount(api);
      const founderSession = sessionOf(founder);
      const created = await call(api, 'POST', '/v1/profiles', founder.auth, { name: 'Handed over' });
      const handedOver = (created.json as { id: string }).id;
      const heir = await joinAs(api, founderSession, 'admin');
      expect(
        (await call(api, 'POST', '/v1/org/ownership', founderSession, { member_id: heir.id })).status,
      ).toBe(200);
      const deleted = await call(api, 'DELETE', '/v1/auth/me', founderSession);
      expect(deleted.status).toBe(202);
      expect((await call(api, 'GET', `/v1/profiles/${handedOver}`, heir.session)).json).toMatchObject({
        id: handedOver,
        name: 'Handed over',
      });
    });

    it('switching organisations: the session acts in the chosen one; a stranger’s organisation is 404', async () => {
      const admin = await joinAs(api, ownerSession, 'admin');
      const own = (await call(api, 'GET', '/v1/auth/me/organisations', admin.session)).json as {
        organisations: { org_id: string; current: boolean }[];
      };
      const home = own.organisations.find((row) => !row.current)?.org_id ?? '';
      const switched = await call(api, 'PUT', '/v1/auth/me/organisation', admin.session, { org_id: home });
      expect(switched.json).toMatchObject({ org_id: home, role: 'owner', current: true });
      expect((await call(api, 'GET', `/v1/profiles/${profileId}`, admin.session)).status).toBe(404);
      const stranger = await createAccount(api);
      const strangerOrg = (
        (await call(api, 'GET', '/v1/auth/me', stranger.auth)).json as {
          account: { org_id: string };
        }
      ).account.org_id;
      const refused = await call(api, 'PUT', '/v1/auth/me/organisation', admin.session, {
        org_id: strangerOrg,
      });
      expect(refused.status).toBe(404);
      expect(codeOf(refused)).toBe('not_found');
    });

    it('invitations: an address that already belongs is 409; a replayed, revoked or expired token is refused', async () => {
      const editor = await joinAs(api, ownerSession, 'editor');
      const again = await call(api, 'POST', '/v1/org/invitations', ownerSession, {
        email: editor.email,
        role: 'viewer',
      });
      expect(again.status).toBe(409);
      expect(codeOf(again)).toBe('already_member');

      const invitee = await createAccount(api);
      await call(api, 'POST', '/v1/org/invitations', ownerSession, { email: invitee.email, role: 'viewer' });
      const token = await invitationTokenFor(api, invitee.email);
      expect(token).toMatch(/^inv_/);
      expect(
        (await call(api, 'POST', '/v1/org/invitations/accept', sessionOf(invitee), { token })).status,
      ).toBe(200);
      const replay = await call(api, 'POST', '/v1/org/invitations/accept', sessionOf(invitee), { token });
      expect(codeOf(replay)).toBe('token_used');

      const late = await createAccount(api);
      const listed = await call(api, 'POST', '/v1/org/invitations', ownerSession, {
        email: late.email,
        role: 'viewer',
      });
      const lateToken = await invitationTokenFor(api, late.email);
      const pending = await call(api, 'GET', '/v1/org/invitations', ownerSession);
      expect((pending.json as { invitations: { id: string }[] }).invitations.map((row) => row.id)).toContain(
        (listed.json as { id: string }).id,
      );
      api.clock.advance(7 * 24 * 3600 * 1000 + 1000);
      // A week later the invitee signs in afresh (the old session went idle) and tries the link.
      const login = await call(
        api,
        'POST',
        '/v1/auth/login',
        {},
        { email: late.email, password: 'correct horse battery' },
      );
      const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
      const expired = await call(
        api,
        'POST',
        '/v1/org/invitations/accept',
        { cookie: `svc_session=${cookie}` },
        {
          token: lateToken,
        },
      );
      expect(expired.status).toBe(400);
      expect(codeOf(expired)).toBe('token_expired');
    });

    it('a revoked invitation no longer works, and another address cannot use a forwarded link', async () => {
      const owner2 = await createAccount(api);
      const session2 = sessionOf(owner2);
      const invitee = await createAccount(api);
      const invited = await call(api, 'POST', '/v1/org/invitations', session2, {
        email: invitee.email,
        role: 'editor',
      });
      const token = await invitationTokenFor(api, invitee.email);
      const forwarded = await createAccount(api);
      const wrong = await call(api, 'POST', '/v1/org/invitations/accept', sessionOf(forwarded), { token });
      expect(codeOf(wrong)).toBe('invalid_token');
      const id = (invited.json as { id: string }).id;
      expect((await call(api, 'DELETE', `/v1/org/invitations/${id}`, session2)).status).toBe(204);
      const revoked = await call(api, 'POST', '/v1/org/invitations/accept', sessionOf(invitee), { token });
      expect(codeOf(revoked)).toBe('invalid_token');
    });

    it('an invitation flood is refused per organisation: 429 rate_limited with Retry-After', async () => {
      const flooder = await createAccount(api);
      const session = sessionOf(flooder);
      const statuses: number[] = [];
      for (let index = 0; index < 21; index += 1) {
        const answer = await call(api, 'POST', '/v1/org/invitations', session, {
          email: `flood${index}@example.test`,
          role: 'viewer',
        });
        statuses.push(answer.status);
        if (answer.status === 429) expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      }
      expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
      expect(statuses[20]).toBe(429);
    });

    it('ownership moves to another member with step-up; the former owner becomes an admin; audited by email', async () => {
      const owner3 = await createAccount(api);
      const session3 = sessionOf(owner3);
      const heir = await joinAs(api, session3, 'admin');
      const formerOwnerId = (
        (await call(api, 'GET', '/v1/auth/me', session3)).json as { account: { id: string } }
      ).account.id;
      const transferred = await call(api, 'POST', '/v1/org/ownership', session3, { member_id: heir.id });
      expect(transferred.json).toMatchObject({ id: heir.id, role: 'owner' });
      expect((await call(api, 'GET', '/v1/auth/me', session3)).json).toMatchObject({
        account: { role: 'admin' },
      });
      const audit = await call(api, 'GET', '/v1/auth/audit', heir.session);
      const actions = (audit.json as { entries: { action: string }[] }).entries.map((entry) => entry.action);
      expect(actions).toEqual(
        expect.arrayContaining(['member.invited', 'member.joined', 'member.ownership_transferred']),
      );
      // The member who joined is named by email in the organisation's log, though their own organisation is elsewhere.
      const joined = (
        audit.json as { entries: { action: string; actor_email: string | null }[] }
      ).entries.find((entry) => entry.action === 'member.joined');
      expect(joined?.actor_email).toBe(heir.email);
      api.clock.advance(10 * 60 * 1000);
      const stale = await call(api, 'POST', '/v1/org/ownership', heir.session, {
        member_id: formerOwnerId,
      });
      // A transfer is a credential change: ten minutes after signing in, it needs a fresh sign-in (spec 5.5.2).
      expect(stale.status).toBe(403);
      expect(codeOf(stale)).toBe('reauth_required');
    });
  });
}
