import { expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import type { SourceBlocksFixture, Suspension } from './source-blocks-suspension.fixture.js';

/** Suspending and reinstating any organisation's profile with an operator-only reason (spec 2.9, 3). */
export function profileSuspension(fx: SourceBlocksFixture): void {
  const { audit } = fx;
  it('suspends another organisation’s profile with an operator-only reason, and reinstates it', async () => {
    const made = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: fx.owner.auth,
      body: { name: 'home' },
    });
    const profile = made.json as { id: string; version: number };
    const admin = `${fx.api.url}/v1/admin/profiles/${profile.id}`;
    const before = (await send(admin, { headers: fx.operator.admin })).json as Suspension;
    expect(before).toMatchObject({
      profile_id: profile.id,
      suspended: false,
      reason: null,
      version: profile.version,
    });

    const noReason = await send(admin, {
      method: 'PATCH',
      headers: fx.operator.admin,
      body: { suspended: true },
    });
    expect(noReason.status).toBe(422);
    expect((problemOf(noReason) as { errors: { field: string }[] }).errors[0]?.field).toBe('reason');

    const reason = 'phishing kit hosting, ticket 991';
    const suspended = await send(admin, {
      method: 'PATCH',
      headers: fx.operator.admin,
      body: { suspended: true, reason },
    });
    expect(suspended.status, suspended.text).toBe(200);
    const state = suspended.json as Suspension;
    expect(state).toMatchObject({ suspended: true, reason, version: profile.version + 1 });
    expect(state.suspended_by).toMatch(/^token:/);

    const ownerView = await send(`${fx.api.url}/v1/profiles/${profile.id}`, { headers: fx.owner.auth });
    expect(ownerView.status).toBe(200);
    expect(ownerView.json).toMatchObject({ suspended: true, version: profile.version + 1 });
    expect(ownerView.text).not.toContain('phishing');
    const write = await send(`${fx.api.url}/v1/profiles/${profile.id}`, {
      method: 'PATCH',
      headers: fx.owner.auth,
      body: { name: 'renamed' },
    });
    expect(write.status).toBe(409);
    expect(problemOf(write).code).toBe('profile_suspended');
    const documents = await eventually(
      async () =>
        fx.bus
          .filter((message) => message.subject === `profiles.${profile.id}`)
          .map((m) => m.payload as Record<string, unknown>),
      (found) => found.some((document) => document.version === profile.version + 1),
    );
    const suspendedDocument = documents.find((document) => document.version === profile.version + 1);
    expect(suspendedDocument).toMatchObject({ suspended: true, filtering: false, logging: false });
    expect(JSON.stringify(suspendedDocument)).not.toContain('phishing');

    const same = await send(admin, {
      method: 'PATCH',
      headers: fx.operator.admin,
      body: { suspended: true, reason },
    });
    expect((same.json as Suspension).version).toBe(profile.version + 1);

    const reinstated = await send(admin, {
      method: 'PATCH',
      headers: fx.operator.admin,
      body: { suspended: false },
    });
    expect(reinstated.json).toMatchObject({ suspended: false, reason: null, version: profile.version + 2 });
    const renamed = await send(`${fx.api.url}/v1/profiles/${profile.id}`, {
      method: 'PATCH',
      headers: fx.owner.auth,
      body: { name: 'renamed' },
    });
    expect(renamed.status).toBe(200);
    const entries = [
      ...(await audit('admin.profile_suspended')),
      ...(await audit('admin.profile_reinstated')),
    ];
    expect(
      entries
        .filter((entry) => entry.target === `profiles/${profile.id}`)
        .map((entry) => entry.action)
        .sort(),
    ).toEqual(['admin.profile_reinstated', 'admin.profile_suspended']);
    const ownerAudit = await send(`${fx.api.url}/v1/auth/audit?limit=200`, { headers: fx.owner.auth });
    expect(ownerAudit.text).not.toContain('phishing');
  });

  it('answers 404 for an unknown profile and 422 for a malformed id', async () => {
    expect(
      (await send(`${fx.api.url}/v1/admin/profiles/zzzzzz`, { headers: fx.operator.admin })).status,
    ).toBe(404);
    const patched = await send(`${fx.api.url}/v1/admin/profiles/zzzzzz`, {
      method: 'PATCH',
      headers: fx.operator.admin,
      body: { suspended: false },
    });
    expect(patched.status).toBe(404);
    expect(
      (await send(`${fx.api.url}/v1/admin/profiles/NOT_AN_ID!`, { headers: fx.operator.admin })).status,
    ).toBe(422);
  });
}
