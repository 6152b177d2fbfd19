import { expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { suspendProfile } from '../../support/profiles.js';
import { DAY, LIST, type ListReportsFixture, MINUTE } from './list-reports.fixture.js';

/** The 20-a-day limit, idempotency, suspended profiles, other organisations and scopes (spec 4.1.5, 7, 8, 1.9). */
export function listReportLimitsAndAccess(fx: ListReportsFixture): void {
  const { createProfile, reportsPath, report, reported, listOf } = fx;
  it('accepts 20 reports per account in 24 hours; the 21st is 429 too_many_reports with Retry-After until the oldest leaves (8)', async () => {
    const reporter = await createAccount(fx.api);
    const profiles = [await createProfile(reporter), await createProfile(reporter)];
    for (let n = 0; n < 20; n += 1) {
      await reported(profiles[n % 2] ?? '', { domain: `r${n}.example` }, reporter);
      fx.api.clock.advance(MINUTE);
    }
    fx.api.clock.advance(-MINUTE + 30_000);
    // The oldest was 19.5 minutes ago: it leaves the window in 24 h minus 19.5 minutes.
    const refused = await report(
      profiles[0] ?? '',
      { domain: 'r20.example', list_id: LIST, kind: 'false_positive' },
      reporter,
    );
    expectProblem(refused, 429, 'too_many_reports');
    const wait = (DAY - 19.5 * MINUTE) / 1000;
    expect(refused.headers['retry-after']).toBe(String(wait));
    expect(problemOf(refused).retry_after).toBe(wait);
    const stored = async () =>
      (await listOf(profiles[0] ?? '', '', reporter)).reports.length +
      (await listOf(profiles[1] ?? '', '', reporter)).reports.length;
    expect(await stored()).toBe(20);
    // Other accounts are not limited by this one.
    await reported(await createProfile());

    fx.api.clock.advance(wait * 1000 - 1_000);
    expectProblem(
      await report(
        profiles[1] ?? '',
        { domain: 'r20.example', list_id: LIST, kind: 'false_positive' },
        reporter,
      ),
      429,
      'too_many_reports',
    );
    fx.api.clock.advance(1_000);
    await reported(profiles[1] ?? '', { domain: 'r20.example' }, reporter);
    // The second oldest, a minute younger, is next to leave.
    const next = await report(
      profiles[1] ?? '',
      { domain: 'r21.example', list_id: LIST, kind: 'false_positive' },
      reporter,
    );
    expectProblem(next, 429, 'too_many_reports');
    expect(next.headers['retry-after']).toBe('60');
    expect(await stored()).toBe(21);
  });

  it('lets exactly one of concurrent reports take an account’s 20th place', async () => {
    const reporter = await createAccount(fx.api);
    const profileId = await createProfile(reporter);
    for (let n = 0; n < 19; n += 1) await reported(profileId, { domain: `c${n}.example` }, reporter);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        report(profileId, { domain: `race${n}.example`, list_id: LIST, kind: 'false_positive' }, reporter),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 429, 429, 429, 429]);
    expect((await listOf(profileId, '', reporter)).reports).toHaveLength(20);
  });

  it('replays a report repeated with the same Idempotency-Key, storing it once (4.1.5)', async () => {
    const profileId = await createProfile();
    const body = { domain: 'tracker.example', list_id: LIST, kind: 'false_negative' };
    const headers = { 'idempotency-key': `report-${Math.random()}` };
    const first = await report(profileId, body, fx.owner, headers);
    const again = await report(profileId, body, fx.owner, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expectProblem(
      await report(profileId, { ...body, kind: 'false_positive' }, fx.owner, headers),
      409,
      'idempotency_key_reused',
    );
    expect((await listOf(profileId)).reports).toHaveLength(1);
  });

  it('refuses reports on a suspended profile with 409 profile_suspended; listing still works (7)', async () => {
    const profileId = await createProfile();
    await reported(profileId);
    await suspendProfile(fx.api, fx.owner, profileId);
    expectProblem(
      await report(profileId, { domain: 'x.example', list_id: LIST, kind: 'false_positive' }),
      409,
      'profile_suspended',
    );
    expect((await listOf(profileId)).reports).toHaveLength(1);
  });

  it('answers 404 for another organisation’s profile, and keeps each organisation’s reports apart (1.9)', async () => {
    const profileId = await createProfile();
    await reported(profileId);
    const body = { domain: 'x.example', list_id: LIST, kind: 'false_positive' };
    expectProblem(await report(profileId, body, fx.stranger), 404, 'not_found');
    expectProblem(await send(reportsPath(profileId), { headers: fx.stranger.auth }), 404, 'not_found');
    expectProblem(await report('zz9zz9', body), 404, 'not_found');
    const theirs = await createProfile(fx.stranger);
    await reported(theirs, {}, fx.stranger);
    expect((await listOf(profileId)).reports).toHaveLength(1);
    expect((await listOf(theirs, '', fx.stranger)).reports).toHaveLength(1);
  });

  it('needs profiles:write to report and profiles:read to list', async () => {
    const reader = await createAccount(fx.api, ['profiles:read']);
    const created = await send(`${fx.api.url}/v1/profiles`, {
      method: 'POST',
      headers: { cookie: `svc_session=${reader.cookie}` },
      body: {},
    });
    const profileId = (created.json as { id: string }).id;
    expect((await send(reportsPath(profileId), { headers: reader.auth })).status).toBe(200);
    expectProblem(
      await report(profileId, { domain: 'x.example', list_id: LIST, kind: 'false_positive' }, reader),
      403,
      'insufficient_scope',
    );
    expectProblem(await send(reportsPath(profileId)), 401, 'unauthenticated');
  });
}
