import { describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { AccountFeedbackFixture } from './account-feedback.fixture.js';

/** The account's audit log and the changes it records (spec 4.13, 6.2). */
export function accountAudit(fx: AccountFeedbackFixture): void {
  const { session, call, audit } = fx;
  describe('GET /v1/auth/audit (spec 4.13, 6.2)', () => {
    it('lists the organisation’s entries newest first, with sealed cursors, to a session or a token', async () => {
      await call('/v1/auth/me/preferences', {
        method: 'PATCH',
        headers: session(fx.owner),
        body: { alerts: { node_offline: true } },
      });
      const first = await audit('?limit=1&action=account.preferences_updated');
      expect(first.entries).toHaveLength(1);
      expect(first.entries[0]?.details).toEqual({ changed: { 'alerts.node_offline': true } });
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = await audit(
        `?limit=1&action=account.preferences_updated&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
      );
      expect(second.entries.map((entry) => entry.details)).toEqual([
        { changed: { 'alerts.node_offline': false } },
      ]);
      expect(second.next_cursor).toBeNull();
      expect(Number(first.entries[0]?.id)).toBeGreaterThan(Number(second.entries[0]?.id));
      const bySession = await call('/v1/auth/audit', { headers: session(fx.owner) });
      expect(bySession.status).toBe(200);
    });

    it('filters by a repeated action and refuses an unknown action, a bad limit and a modified cursor', async () => {
      const both = await audit('?action=account.preferences_updated&action=device.update');
      expect(both.entries.every((entry) => entry.action === 'account.preferences_updated')).toBe(true);
      expect(both.entries.length).toBeGreaterThanOrEqual(2);
      expect((await audit('?action=device.update')).entries).toEqual([]);
      expectProblem(
        await call('/v1/auth/audit?action=nope', { headers: fx.owner.auth }),
        422,
        'validation_failed',
      );
      expectProblem(
        await call('/v1/auth/audit?limit=0', { headers: fx.owner.auth }),
        422,
        'validation_failed',
      );
      const first = await audit('?limit=1');
      const tampered = `${first.next_cursor ?? ''}x`;
      expectProblem(
        await call(`/v1/auth/audit?cursor=${encodeURIComponent(tampered)}`, { headers: fx.owner.auth }),
        400,
        'invalid_cursor',
      );
    });

    it('shows another organisation nothing, and needs account:read', async () => {
      expect(
        (await audit('', fx.stranger)).entries.filter(
          (entry) => entry.action === 'account.preferences_updated',
        ),
      ).toEqual([]);
      const narrow = await createAccount(fx.api, ['profiles:read']);
      expectProblem(await call('/v1/auth/audit', { headers: narrow.auth }), 403, 'insufficient_scope');
      expectProblem(await call('/v1/auth/audit', {}), 401, 'unauthenticated');
    });
  });

  describe('audited identity and profile changes (spec 6.2)', () => {
    it('records the sign-in as session.created with its method, and the token as token.created', async () => {
      const signIns = (await audit('?action=session.created')).entries;
      expect(signIns).toHaveLength(1);
      expect(signIns[0]).toMatchObject({
        actor: `account:${fx.ownerId}`,
        action: 'session.created',
        details: { method: 'password' },
      });
      expect(signIns[0]?.client_ip).toEqual(expect.any(String));
      const created = (await audit('?action=token.created')).entries;
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ actor: `account:${fx.ownerId}`, details: { name: 'tests' } });
    });

    it('records token revocation as token.revoked', async () => {
      const made = await call('/v1/tokens', {
        method: 'POST',
        headers: session(fx.owner),
        body: { name: 'short-lived', scopes: ['profiles:read'] },
      });
      expect(made.status).toBe(201);
      const tokenId = (made.json as { token: { id: string } }).token.id;
      const revoked = await send(`${fx.api.url}/v1/tokens/${tokenId}`, {
        method: 'DELETE',
        headers: session(fx.owner),
      });
      expect(revoked.status).toBe(204);
      const entries = (await audit('?action=token.revoked')).entries;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor: `account:${fx.ownerId}`, target: `tokens/${tokenId}` });
      // A refused revocation is not audited.
      const again = await send(`${fx.api.url}/v1/tokens/${tokenId}`, {
        method: 'DELETE',
        headers: session(fx.owner),
      });
      expectProblem(again, 404, 'not_found');
      expect((await audit('?action=token.revoked')).entries).toHaveLength(1);
    });

    it('records a password change as account.password_changed', async () => {
      const changer = await createAccount(fx.api);
      const changed = await call('/v1/auth/password', {
        method: 'POST',
        headers: session(changer),
        body: { current_password: 'correct horse battery', new_password: 'another long passphrase' },
      });
      expect(changed.status, changed.text).toBe(200);
      const entries = (await audit('?action=account.password_changed', changer)).entries;
      expect(entries).toHaveLength(1);
      expect(entries[0]?.details).toMatchObject({ via: 'change' });
      expect((await audit('?action=account.password_changed')).entries).toEqual([]);
    });

    it('records a profile deletion as profile.deleted with the token as actor', async () => {
      const made = await call('/v1/profiles', {
        method: 'POST',
        headers: fx.owner.auth,
        body: { name: 'Gone' },
      });
      expect(made.status).toBe(201);
      const profileId = (made.json as { id: string }).id;
      const deleted = await send(`${fx.api.url}/v1/profiles/${profileId}`, {
        method: 'DELETE',
        headers: fx.owner.auth,
      });
      expect(deleted.status).toBe(204);
      const entries = (await audit('?action=profile.deleted')).entries;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actor: expect.stringMatching(/^token:/),
        target: `profiles/${profileId}`,
        details: { name: 'Gone' },
      });
    });
  });
}
