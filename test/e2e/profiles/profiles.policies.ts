import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import type { ProfilesFixture } from './profiles.fixture.js';

const HOMEWORK = { name: 'homework', windows: [{ days: ['mon', 'wed'], start: '16:00', end: '18:00' }] };
const NIGHT = { name: 'night', windows: [{ days: ['sun', 'mon'], start: '21:00', end: '07:00' }] };

interface AllowanceBody {
  id: string;
  domain: string | null;
  service: string | null;
  expires_at: string;
  created_at: string;
}

/** Issue 38's policies kept with the profile (ADR 0044): bedtime, schedule assignments, timed allowances. */
export function profilePolicies(fx: ProfilesFixture): void {
  const url = (id: string, tail: string) => `${fx.api.url}/v1/profiles/${id}/${tail}`;
  const putSchedules = (id: string, body: object, headers: Record<string, string> = {}) =>
    send(url(id, 'schedules'), { method: 'PUT', headers: { ...fx.owner.auth, ...headers }, body });
  const allow = (id: string, body: object, headers: Record<string, string> = {}, who = fx.owner) =>
    send(url(id, 'allowances'), { method: 'POST', headers: { ...who.auth, ...headers }, body });
  const allowances = async (id: string, who = fx.owner) => {
    const answer = await send(url(id, 'allowances'), { headers: who.auth });
    return answer.json as { allowances: AllowanceBody[] };
  };
  const versionOf = async (id: string) =>
    ((await send(`${fx.api.url}/v1/profiles/${id}`, { headers: fx.owner.auth })).json as { version: number })
      .version;

  it('stores the bedtime and assignments with the schedules, reads them back and publishes them', async () => {
    const { profile } = await fx.create();
    const body = {
      schedules: [HOMEWORK, NIGHT],
      bedtime: 'night',
      assignments: [
        { target: { kind: 'service', id: 'youtube' }, schedule: 'homework', mode: 'only_during' },
        { target: { kind: 'category', id: 'dating' }, schedule: 'night', mode: 'lifted_during' },
        { target: { kind: 'list', id: 1 }, schedule: 'homework', mode: 'lifted_during' },
        { target: { kind: 'deny', pattern: 'games.example' }, schedule: 'homework', mode: 'only_during' },
      ],
    };
    const put = await putSchedules(profile.id, body, { 'if-match': '"1"' });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.etag).toBe('"2"');
    expect(put.json).toEqual(body);
    expect((await send(url(profile.id, 'schedules'), { headers: fx.owner.auth })).json).toEqual(body);
    await expect
      .poll(() => fx.documentsOf(profile.id).find((document) => document.version === 2))
      .toMatchObject({ bedtime: 'night', schedule_assignments: body.assignments, allowances: [] });
    const cleared = await putSchedules(profile.id, { schedules: [HOMEWORK] });
    expect(cleared.json).toEqual({ schedules: [HOMEWORK], bedtime: null, assignments: [] });
  });

  it('refuses assignments naming unknown services, categories, lists or schedules with 422 at each field', async () => {
    const { profile } = await fx.create();
    const unknownItems = await putSchedules(profile.id, {
      schedules: [HOMEWORK],
      assignments: [
        { target: { kind: 'service', id: 'no-such-service' }, schedule: 'homework', mode: 'only_during' },
        { target: { kind: 'category', id: 'no-such-category' }, schedule: 'homework', mode: 'only_during' },
        { target: { kind: 'list', id: 65000 }, schedule: 'homework', mode: 'only_during' },
      ],
    });
    expectProblem(unknownItems, 422, 'validation_failed');
    expect((problemOf(unknownItems).errors as { field: string }[]).map((error) => error.field)).toEqual([
      'assignments.0.target.id',
      'assignments.1.target.id',
      'assignments.2.target.id',
    ]);
    const unknownSchedule = await putSchedules(profile.id, {
      schedules: [HOMEWORK],
      bedtime: 'weekend',
      assignments: [{ target: { kind: 'service', id: 'youtube' }, schedule: 'weekend', mode: 'only_during' }],
    });
    expectProblem(unknownSchedule, 422, 'validation_failed');
    expect(
      (problemOf(unknownSchedule).errors as { field: string }[]).map((error) => error.field).sort(),
    ).toEqual(['assignments.0.schedule', 'bedtime']);
    expect(await versionOf(profile.id)).toBe(1);
  });

  it('creates an allowance for N minutes (201), lists it, publishes it, and never shows it once expired', async () => {
    const { profile } = await fx.create();
    const now = fx.api.clock.now().getTime();
    const created = await allow(profile.id, { domain: 'Games.Example', minutes: 30 }, { 'if-match': '"1"' });
    expect(created.status, created.text).toBe(201);
    const allowance = created.json as AllowanceBody;
    expect(allowance).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      domain: 'games.example',
      service: null,
      expires_at: new Date(now + 30 * 60_000).toISOString(),
      created_at: new Date(now).toISOString(),
    });
    const service = (await allow(profile.id, { service: 'youtube', minutes: 5 })).json as AllowanceBody;
    expect((await allowances(profile.id)).allowances).toEqual([service, allowance]);
    await expect
      .poll(() => fx.documentsOf(profile.id).find((document) => document.version === 3))
      .toMatchObject({
        allowances: [
          { domain: null, service: 'youtube', until: service.expires_at },
          { domain: 'games.example', service: null, until: allowance.expires_at },
        ],
      });
    fx.api.clock.advance(5 * 60_000);
    expect((await allowances(profile.id)).allowances).toEqual([allowance]);
    // The next write publishes a document without the expired allowance.
    await fx.patch(profile.id, { name: 'later' });
    await expect
      .poll(() => fx.documentsOf(profile.id).find((document) => document.version === 4))
      .toMatchObject({
        allowances: [{ domain: 'games.example', service: null, until: allowance.expires_at }],
      });
    fx.api.clock.advance(25 * 60_000);
    expect((await allowances(profile.id)).allowances).toEqual([]);
  });

  it('ends an allowance by DELETE (204, published, audited); 404 once ended or for an unknown id', async () => {
    const { profile } = await fx.create();
    const { id } = (await allow(profile.id, { domain: 'video.example', minutes: 60 })).json as AllowanceBody;
    const ended = await send(url(profile.id, `allowances/${id}`), {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expect(ended.status, ended.text).toBe(204);
    expect(ended.headers.etag).toBe('"3"');
    expect((await allowances(profile.id)).allowances).toEqual([]);
    await expect
      .poll(() => fx.documentsOf(profile.id).find((document) => document.version === 3))
      .toMatchObject({ allowances: [] });
    const again = await send(url(profile.id, `allowances/${id}`), {
      method: 'DELETE',
      headers: fx.owner.auth,
    });
    expectProblem(again, 404, 'not_found');
    const log = await send(`${fx.api.url}/v1/auth/audit`, { headers: fx.owner.auth });
    const entries = (log.json as { entries: { action: string; target: string; details: object }[] }).entries;
    const mine = entries.filter((entry) => entry.target === `profiles/${profile.id}/allowances/${id}`);
    expect(mine.map((entry) => entry.action)).toEqual([
      'profile.allowance_ended',
      'profile.allowance_created',
    ]);
    expect(mine[1]?.details).toEqual({ domain: 'video.example', service: null, minutes: 60 });
  });

  it('refuses 0 or 1441 minutes, both domain and service, neither, and an unknown service with 422', async () => {
    const { profile } = await fx.create();
    const fieldsOf = async (body: object) => {
      const problem = expectProblem(await allow(profile.id, body), 422, 'validation_failed');
      return (problem.errors as { field: string }[]).map((error) => error.field);
    };
    expect(await fieldsOf({ domain: 'a.example', minutes: 0 })).toEqual(['minutes']);
    expect(await fieldsOf({ domain: 'a.example', minutes: 1441 })).toEqual(['minutes']);
    expect(await fieldsOf({ domain: 'a.example', service: 'youtube', minutes: 5 })).toEqual(['domain']);
    expect(await fieldsOf({ minutes: 5 })).toEqual(['domain']);
    expect(await fieldsOf({ service: 'no-such-service', minutes: 5 })).toEqual(['service']);
    expect(await versionOf(profile.id)).toBe(1);
    expect((await allowances(profile.id)).allowances).toEqual([]);
  });

  it('replays a repeated Idempotency-Key without a second allowance; 412 for a stale If-Match', async () => {
    const { profile } = await fx.create();
    const headers = { 'idempotency-key': `allow-${Math.random()}` };
    const first = await allow(profile.id, { domain: 'once.example', minutes: 10 }, headers);
    const again = await allow(profile.id, { domain: 'once.example', minutes: 10 }, headers);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect((await allowances(profile.id)).allowances).toHaveLength(1);
    const stale = await allow(profile.id, { domain: 'late.example', minutes: 10 }, { 'if-match': '"1"' });
    expectProblem(stale, 412, 'version_mismatch');
    expect((await allowances(profile.id)).allowances).toHaveLength(1);
  });

  it('refuses a 101st running allowance with 422 too_many_allowances; expired ones do not count', async () => {
    const { profile } = await fx.create();
    for (let index = 0; index < 100; index += 1) {
      const answer = await allow(profile.id, {
        domain: `site${index}.example`,
        minutes: index < 50 ? 1 : 60,
      });
      expect(answer.status, answer.text).toBe(201);
    }
    expectProblem(
      await allow(profile.id, { domain: 'one-more.example', minutes: 5 }),
      422,
      'too_many_allowances',
    );
    fx.api.clock.advance(60_000);
    expect((await allow(profile.id, { domain: 'one-more.example', minutes: 5 })).status).toBe(201);
    expect((await allowances(profile.id)).allowances).toHaveLength(51);
  }, 60_000);

  it('answers 404 for another organisation’s profile or allowance, 403 to a read-only token, 401 without one', async () => {
    const { profile } = await fx.create();
    const { id } = (await allow(profile.id, { domain: 'mine.example', minutes: 60 })).json as AllowanceBody;
    expectProblem(
      await allow(profile.id, { domain: 'x.example', minutes: 5 }, {}, fx.stranger),
      404,
      'not_found',
    );
    expectProblem(await send(url(profile.id, 'allowances'), { headers: fx.stranger.auth }), 404, 'not_found');
    const foreignDelete = await send(url(profile.id, `allowances/${id}`), {
      method: 'DELETE',
      headers: fx.stranger.auth,
    });
    expectProblem(foreignDelete, 404, 'not_found');
    const reader = await createAccount(fx.api, ['profiles:read']);
    expectProblem(
      await allow(profile.id, { domain: 'x.example', minutes: 5 }, {}, reader),
      403,
      'insufficient_scope',
    );
    expect((await send(url(profile.id, 'allowances'))).status).toBe(401);
    expect((await allowances(profile.id)).allowances.map((allowance) => allowance.id)).toEqual([id]);
  });
}
