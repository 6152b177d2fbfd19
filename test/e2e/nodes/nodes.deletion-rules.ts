import { describe, expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { NodesFixture } from './nodes.fixture.js';

/** A profile with enrolled nodes is not deleted (ROUTES.md: 409 profile_not_empty). */
export function nodeDeletionRules(fx: NodesFixture): void {
  const { createProfile, created, enrolled, revoke } = fx;
  describe('deletion rules (ROUTES.md: 409 profile_not_empty while nodes are enrolled)', () => {
    it('refuses to delete a profile with an enrolled node until it is revoked; pending nodes do not count', async () => {
      const profileId = await createProfile();
      const { node } = await enrolled(profileId);
      await created(profileId);
      expectProblem(
        await send(`${fx.api.url}/v1/profiles/${profileId}`, { method: 'DELETE', headers: fx.owner.auth }),
        409,
        'profile_not_empty',
      );
      expect((await revoke(profileId, node.id)).status).toBe(204);
      expect(
        (await send(`${fx.api.url}/v1/profiles/${profileId}`, { method: 'DELETE', headers: fx.owner.auth }))
          .status,
      ).toBe(204);
    });
  });
}
