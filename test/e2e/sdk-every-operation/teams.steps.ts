import { describe, expect, it } from 'vitest';
import { failureOf, type SdkScenario } from '../../support/sdk-scenario.js';

/** Members, invitations, organisation switching and ownership through the SDK (issue 39), on their own accounts. */
export function describeTeams(scenario: SdkScenario): void {
  describe('members, invitations and organisations (issue 39)', () => {
    it('invites, accepts, switches, changes a role, transfers ownership, removes and leaves', async () => {
      const owner = await scenario.signedIn('team-owner');
      const member = await scenario.signedIn('team-member');
      const ownerOrg = (await owner.session.auth.me()).org_id;

      const invitation = await owner.session.org.invitations.create({ email: member.email, role: 'editor' });
      expect((await owner.session.org.invitations.list()).map((row) => row.id)).toContain(invitation.id);
      const spare = await owner.session.org.invitations.create({
        email: 'spare@example.test',
        role: 'viewer',
      });
      await owner.session.org.invitations.revoke(spare.id);

      const token = await scenario.emailedToken(member.email, /invitations\/accept\?token=([^\s"<]+)/);
      expect(await member.session.org.invitations.accept(token)).toMatchObject({
        org_id: ownerOrg,
        role: 'editor',
        current: true,
      });
      expect((await member.session.auth.organisations.list()).map((row) => row.org_id)).toContain(ownerOrg);
      expect((await owner.session.org.members.list()).map((row) => row.email)).toContain(member.email);
      expect(await owner.session.org.members.updateRole(member.id, 'admin')).toMatchObject({ role: 'admin' });

      expect(await owner.session.org.transferOwnership(member.id)).toMatchObject({
        id: member.id,
        role: 'owner',
      });
      const home = (await member.session.auth.organisations.list()).find((row) => !row.current);
      expect(await member.session.auth.organisations.switchTo(home?.org_id ?? '')).toMatchObject({
        current: true,
      });
      expect(await member.session.auth.organisations.switchTo(ownerOrg)).toMatchObject({ role: 'owner' });
      await member.session.org.members.remove(owner.id);
      expect((await failureOf(owner.session.auth.organisations.switchTo(ownerOrg))).code).toBe('not_found');

      const third = await scenario.signedIn('team-third');
      await member.session.org.invitations.create({ email: third.email, role: 'viewer' });
      await third.session.org.invitations.accept(
        await scenario.emailedToken(third.email, /invitations\/accept\?token=([^\s"<]+)/),
      );
      await third.session.auth.organisations.leave(ownerOrg);
      expect((await third.session.auth.organisations.list()).map((row) => row.org_id)).not.toContain(
        ownerOrg,
      );
    });
  });
}
