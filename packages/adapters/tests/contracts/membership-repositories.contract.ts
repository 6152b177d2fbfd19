import { randomUUID } from 'node:crypto';
import type { AccountRecord, IdentityRepositories, OrgInvitationRow } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The identity repositories under test (memberships, invitations and members' credentials among them). */
export interface MembershipsUnderTest {
  repositories: IdentityRepositories;
  dispose(): Promise<void>;
}

const at = (offsetMs = 0) => new Date(Date.UTC(2026, 10, 27, 12) + offsetMs);

/** Signs an account up with its organisation, as signup does. */
async function signedUp(repositories: IdentityRepositories, label: string): Promise<AccountRecord> {
  const orgId = randomUUID();
  const account: AccountRecord = {
    id: randomUUID(),
    orgId,
    role: 'owner',
    email: `${label}-${randomUUID()}@example.test`,
    emailVerifiedAt: at(),
    passwordHash: 'hash',
    plan: 'free',
    mfa: false,
    isAdmin: false,
    createdAt: at(),
    deletionRequestedAt: null,
    deletionDueAt: null,
  };
  await repositories.accounts.createWithOrganisation({ id: orgId, name: label, createdAt: at() }, account);
  return account;
}

function invitation(orgId: string, email: string, expiresAt = at(7 * 86_400_000)): OrgInvitationRow {
  return {
    id: randomUUID(),
    orgId,
    email,
    role: 'editor',
    tokenHash: randomUUID(),
    invitedBy: 'account:x',
    createdAt: at(),
    expiresAt,
    acceptedAt: null,
    revokedAt: null,
  };
}

/** What every store of members must guarantee (issue 39, ADR 0047), whichever engine. */
export function runMembershipRepositoriesContract(
  name: string,
  open: () => Promise<MembershipsUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`membership repositories contract: ${name}`, () => {
    let sut: MembershipsUnderTest;
    beforeAll(async () => {
      sut = await open();
    }, 60_000);
    afterAll(async () => sut?.dispose());

    it('signup makes the account the owner of its own organisation', async () => {
      const owner = await signedUp(sut.repositories, 'family');
      expect(await sut.repositories.memberships.find(owner.orgId, owner.id)).toMatchObject({ role: 'owner' });
      expect(await sut.repositories.memberships.count(owner.orgId)).toBe(1);
      expect((await sut.repositories.accounts.listOwners(owner.orgId)).map((row) => row.id)).toEqual([
        owner.id,
      ]);
    });

    it('adds a member once, lists both sides, changes the role and removes it', async () => {
      const { memberships } = sut.repositories;
      const owner = await signedUp(sut.repositories, 'school');
      const teacher = await signedUp(sut.repositories, 'teacher');
      const row = { orgId: owner.orgId, accountId: teacher.id, role: 'viewer' as const, createdAt: at(1000) };
      expect(await memberships.add(row)).toBe(true);
      expect(await memberships.add({ ...row, role: 'admin' })).toBe(false);
      expect((await memberships.listByOrganisation(owner.orgId)).map((m) => [m.email, m.role])).toEqual([
        [owner.email, 'owner'],
        [teacher.email, 'viewer'],
      ]);
      expect((await memberships.listByAccount(teacher.id)).map((m) => [m.orgName, m.role])).toEqual([
        ['teacher', 'owner'],
        ['school', 'viewer'],
      ]);
      expect(await memberships.setRole(owner.orgId, teacher.id, 'editor')).toBe(true);
      expect(await memberships.find(owner.orgId, teacher.id)).toMatchObject({ role: 'editor' });
      expect(await memberships.remove(owner.orgId, teacher.id)).toBe(true);
      expect(await memberships.remove(owner.orgId, teacher.id)).toBe(false);
      expect(await memberships.find(owner.orgId, teacher.id)).toBeNull();
    });

    it('uses an invitation once even when two acceptances race; revoked and expired ones are not live', async () => {
      const { orgInvitations } = sut.repositories;
      const owner = await signedUp(sut.repositories, 'office');
      const first = invitation(owner.orgId, 'a@example.test');
      const revoked = invitation(owner.orgId, 'b@example.test');
      const expired = invitation(owner.orgId, 'c@example.test', at(1000));
      for (const row of [first, revoked, expired]) await orgInvitations.create(row);
      expect(await orgInvitations.revoke(owner.orgId, revoked.id, at(10))).toBe(true);
      expect(await orgInvitations.revoke(randomUUID(), first.id, at(10))).toBe(false);
      expect((await orgInvitations.listLive(owner.orgId, at(2000))).map((row) => row.id)).toEqual([first.id]);
      const results = await Promise.all([
        orgInvitations.accept(first.id, at(20)),
        orgInvitations.accept(first.id, at(20)),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await orgInvitations.accept(expired.id, at(2000))).toBe(false);
      expect(await orgInvitations.findByTokenHash(first.tokenHash)).toMatchObject({
        id: first.id,
        acceptedAt: at(20),
      });
    });

    it('a removed member’s sessions fall back and only their tokens of that organisation are revoked', async () => {
      const { memberAccess, sessions, apiTokens } = sut.repositories;
      const owner = await signedUp(sut.repositories, 'club');
      const member = await signedUp(sut.repositories, 'member');
      const session = {
        id: randomUUID(),
        accountId: member.id,
        tokenHash: randomUUID(),
        tokenIssuedAt: at(),
        previousTokenHash: null,
        previousValidUntil: null,
        createdAt: at(),
        lastUsedAt: at(),
        userAgent: 'test',
        ip: '192.0.2.1',
        method: 'password' as const,
        strong: false,
        restricted: false,
        revokedAt: null,
      };
      await sessions.create(session);
      await memberAccess.setActingOrganisation(session.id, owner.orgId);
      expect(await sessions.findById(member.id, session.id)).toMatchObject({ actingOrgId: owner.orgId });
      const token = (orgId: string) => ({
        id: randomUUID(),
        accountId: member.id,
        orgId,
        name: 'token',
        scopes: ['profiles:read' as const],
        secretHash: randomUUID(),
        prefix: 'svc_abcd',
        createdAt: at(),
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
      });
      const there = token(owner.orgId);
      const own = token(member.orgId);
      await apiTokens.create(there);
      await apiTokens.create(own);
      await memberAccess.resetActingOrganisation(member.id, owner.orgId);
      expect(await memberAccess.revokeTokensOfOrganisation(member.id, owner.orgId, at(5))).toBe(1);
      expect((await sessions.findById(member.id, session.id))?.actingOrgId ?? null).toBeNull();
      expect((await apiTokens.findById(there.id))?.revokedAt).toEqual(at(5));
      expect((await apiTokens.findById(own.id))?.revokedAt).toBeNull();
    });
  });
}
