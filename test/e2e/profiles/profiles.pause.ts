import { type ProfileRecord, UnitOfWork } from '@svc/domain';
import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { ProfileBody, ProfilesFixture } from './profiles.fixture.js';

type Paused = ProfileBody & { paused_until: string | null };

/** The owner's timed pause (ROUTES.md "Beyond the spec", issue 38): validation, versioning, publication. */
export function profilePause(fx: ProfilesFixture): void {
  const pauseOf = (id: string) => `${fx.api.url}/v1/profiles/${id}/pause`;
  const pause = (id: string, body: object, headers: Record<string, string> = {}, who = fx.owner) =>
    send(pauseOf(id), { method: 'POST', headers: { ...who.auth, ...headers }, body });
  const resume = (id: string, headers: Record<string, string> = {}, who = fx.owner) =>
    send(pauseOf(id), { method: 'DELETE', headers: { ...who.auth, ...headers } });
  const read = async (id: string) => {
    const answer = await send(`${fx.api.url}/v1/profiles/${id}`, { headers: fx.owner.auth });
    return { body: answer.json as Paused, etag: answer.headers.etag };
  };

  it('pauses for N minutes from the clock: paused_until answered, shown on GET, versioned and published', async () => {
    const { profile } = await fx.create({ name: 'paused' });
    expect((await read(profile.id)).body.paused_until).toBeNull();
    const now = fx.api.clock.now().getTime();
    const answer = await pause(profile.id, { minutes: 15 }, { 'If-Match': '"1"' });
    expect(answer.status, answer.text).toBe(200);
    const until = new Date(now + 15 * 60_000).toISOString();
    expect(answer.json).toEqual({ paused_until: until });
    expect(answer.headers.etag).toBe('"2"');
    expect((await read(profile.id)).body).toMatchObject({ version: 2, paused_until: until });
    await expect
      .poll(() => fx.documentsOf(profile.id).find((document) => document.version === 2))
      .toMatchObject({ paused_until: until, filtering: true });
  });

  it('shows paused_until null once the clock reaches it (end exclusive), with no write needed', async () => {
    const { profile } = await fx.create();
    await pause(profile.id, { minutes: 1 });
    fx.api.clock.advance(60_000 - 1);
    expect((await read(profile.id)).body.paused_until).not.toBeNull();
    fx.api.clock.advance(1);
    expect((await read(profile.id)).body).toMatchObject({ paused_until: null, version: 2 });
  });

  it('a second pause replaces the first from now, even when shorter', async () => {
    const { profile } = await fx.create();
    await pause(profile.id, { minutes: 60 });
    const now = fx.api.clock.now().getTime();
    const answer = await pause(profile.id, { minutes: 5 });
    expect(answer.json).toEqual({ paused_until: new Date(now + 5 * 60_000).toISOString() });
    expect((await read(profile.id)).body.version).toBe(3);
  });

  it('resume ends the pause (204, a new version published), and is idempotent', async () => {
    const { profile } = await fx.create();
    await pause(profile.id, { minutes: 30 });
    const ended = await resume(profile.id, { 'If-Match': '"2"' });
    expect(ended.status, ended.text).toBe(204);
    expect(ended.headers.etag).toBe('"3"');
    expect((await read(profile.id)).body).toMatchObject({ paused_until: null, version: 3 });
    await expect
      .poll(() => fx.documentsOf(profile.id).find((document) => document.version === 3))
      .toMatchObject({ paused_until: null });
    const again = await resume(profile.id);
    expect(again.status).toBe(204);
    expect((await read(profile.id)).body.version).toBe(3);
    expectProblem(await resume(profile.id, { 'If-Match': '"2"' }), 412, 'version_mismatch');
  });

  it('audits pause and resume with who, the minutes and the end', async () => {
    const { profile } = await fx.create();
    const answer = await pause(profile.id, { minutes: 20 });
    await resume(profile.id);
    const log = await send(`${fx.api.url}/v1/auth/audit`, { headers: fx.owner.auth });
    const entries = (log.json as { entries: { action: string; target: string; details: object }[] }).entries;
    const mine = entries.filter((entry) => entry.target === `profiles/${profile.id}`);
    expect(mine.map((entry) => entry.action)).toEqual(['profile.resumed', 'profile.paused']);
    const paused_until = (answer.json as { paused_until: string }).paused_until;
    expect(mine[1]?.details).toEqual({ minutes: 20, paused_until });
    expect(mine[0]?.details).toEqual({ paused_until });
  });

  it('refuses minutes 0, 1441, 1.5, a string, a missing field or an unknown one with 422 naming minutes', async () => {
    const { profile } = await fx.create();
    for (const body of [{ minutes: 0 }, { minutes: 1441 }, { minutes: 1.5 }, { minutes: '15' }, {}]) {
      const problem = expectProblem(await pause(profile.id, body), 422, 'validation_failed');
      expect((problem.errors as { field: string }[]).map((error) => error.field)).toEqual(['minutes']);
    }
    expectProblem(await pause(profile.id, { minutes: 5, until: 'forever' }), 422, 'validation_failed');
    expect((await read(profile.id)).body).toMatchObject({ version: 1, paused_until: null });
    for (const minutes of [1, 1440]) expect((await pause(profile.id, { minutes })).status).toBe(200);
  });

  it('answers 412 for a stale If-Match and changes nothing', async () => {
    const { profile } = await fx.create();
    await fx.patch(profile.id, { name: 'moved on' });
    expectProblem(await pause(profile.id, { minutes: 5 }, { 'If-Match': '"1"' }), 412, 'version_mismatch');
    expect((await read(profile.id)).body.paused_until).toBeNull();
  });

  it('answers 404 for another organisation’s profile, 403 to a read-only token, 401 without one', async () => {
    const { profile } = await fx.create();
    expectProblem(await pause(profile.id, { minutes: 5 }, {}, fx.stranger), 404, 'not_found');
    expectProblem(await resume(profile.id, {}, fx.stranger), 404, 'not_found');
    const reader = await createAccount(fx.api, ['profiles:read']);
    expectProblem(await pause(profile.id, { minutes: 5 }, {}, reader), 403, 'insufficient_scope');
    expectProblem(await resume(profile.id, {}, reader), 403, 'insufficient_scope');
    expect((await send(pauseOf(profile.id), { method: 'POST', body: { minutes: 5 } })).status).toBe(401);
    expect((await read(profile.id)).body).toMatchObject({ version: 1, paused_until: null });
  });

  it('refuses to pause a profile an operator suspended (409); its document stays unfiltered', async () => {
    const { profile } = await fx.create();
    await pause(profile.id, { minutes: 30 });
    const uow = await fx.api.container.getAsync<UnitOfWork>(UnitOfWork);
    const me = await send(`${fx.api.url}/v1/auth/me`, { headers: fx.owner.auth });
    const ownerOrg = (me.json as { account: { org_id: string } }).account.org_id;
    await uow.run(async (tx) => {
      const record = (await tx.profiles.find(ownerOrg, profile.id, { forUpdate: true })) as ProfileRecord;
      await tx.profiles.save({ ...record, suspended: true });
    });
    expectProblem(await pause(profile.id, { minutes: 5 }), 409, 'profile_suspended');
    expectProblem(await resume(profile.id), 409, 'profile_suspended');
    expect((await read(profile.id)).body).toMatchObject({ suspended: true });
  });
}
