import { triageDueAt } from '@svc/domain';
import { expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { LIST, type ListReportsFixture, UNCATALOGUED, UUID } from './list-reports.fixture.js';

/** A report as recorded and listed: catalogue version, triage deadline, normalised fields, field errors, paging (spec 2.6, 4.5). */
export function listReportRecording(fx: ListReportsFixture): void {
  const { createProfile, reportsPath, report, reported, listOf, errorsOf, etagOf } = fx;
  it('records an open report with the list’s catalogue version and triage deadline: 202 {id} (4.5, 2.6)', async () => {
    const profileId = await createProfile();
    const createdAt = fx.api.clock.now();
    const answer = await report(profileId, {
      domain: '  Ads.Example.COM. ',
      list_id: LIST,
      kind: 'false_positive',
      note: 'Breaks the shop’s checkout.',
    });
    expect(answer.status, answer.text).toBe(202);
    expect(Object.keys(answer.json as object)).toEqual(['id']);
    const { id } = answer.json as { id: string };
    expect(id).toMatch(UUID);
    const { reports, next_cursor } = await listOf(profileId);
    expect(next_cursor).toBeNull();
    expect(reports).toEqual([
      {
        id,
        profile_id: profileId,
        domain: 'ads.example.com',
        list_id: LIST,
        // No compilation of the list yet: no version to record (the pipeline's tests record one).
        list_version: null,
        kind: 'false_positive',
        note: 'Breaks the shop’s checkout.',
        status: 'open',
        resolution_note: '',
        resolved_at: null,
        created_at: createdAt.toISOString(),
        triage_due_at: triageDueAt(createdAt).toISOString(),
      },
    ]);
    // A report is not a profile write.
    expect(await etagOf(profileId)).toBe('"1"');
  });

  it('normalises domains to lower-case A-labels without a trailing dot, and stores an omitted note as empty', async () => {
    const profileId = await createProfile();
    await reported(profileId, { domain: 'Bücher.Example.', kind: 'false_negative' });
    fx.api.clock.advance(1_000);
    await reported(profileId, { domain: '_DMARC.example.org' });
    const { reports } = await listOf(profileId);
    expect(reports.map((entry) => [entry.domain, entry.kind, entry.note])).toEqual([
      ['_dmarc.example.org', 'false_positive', ''],
      ['xn--bcher-kva.example', 'false_negative', ''],
    ]);
  });

  it.each([
    [{ domain: 'https://example.com/x' }, 'domain', /not a URL/],
    [{ domain: 'exa mple.com' }, 'domain', /a space/],
    [{ domain: '' }, 'domain', /domain name/],
    [{ domain: '192.0.2.1' }, 'domain', /IP address/],
    [{ domain: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}` }, 'domain', /253/],
    [{ list_id: 70_000 }, 'list_id', /65535/],
    [{ list_id: 'one' }, 'list_id', /list id/],
    [{ list_id: UNCATALOGUED }, 'list_id', /GET \/v1\/lists/],
    [{ kind: 'wrong' }, 'kind', /false_positive, false_negative/],
    [{ note: 'n'.repeat(501) }, 'note', /500/],
    [{ extra: true }, 'body', /extra/],
  ])('refuses %j with 422 validation_failed naming %s', async (override, field, message) => {
    const profileId = await createProfile();
    const answer = await report(profileId, {
      domain: 'ads.example.com',
      list_id: LIST,
      kind: 'false_positive',
      ...override,
    });
    expectProblem(answer, 422, 'validation_failed');
    const error = errorsOf(answer).find((entry) => entry.field === field);
    expect(error?.message, answer.text).toMatch(message);
    expect((await listOf(profileId)).reports).toEqual([]);
  });

  it('lists every invalid field at once, and requires domain, list_id and kind', async () => {
    const profileId = await createProfile();
    const answer = await report(profileId, { note: 7 });
    expectProblem(answer, 422, 'validation_failed');
    expect(
      errorsOf(answer)
        .map((entry) => entry.field)
        .sort(),
    ).toEqual(['domain', 'kind', 'list_id', 'note']);
    expect(
      (
        await report(profileId, {
          domain: 'a.example',
          list_id: LIST,
          kind: 'false_positive',
          note: 'n'.repeat(500),
        })
      ).status,
    ).toBe(202);
  });

  it('lists reports newest first with sealed cursors', async () => {
    const profileId = await createProfile();
    const ids: string[] = [];
    for (const domain of ['one.example', 'two.example', 'three.example']) {
      ids.push(await reported(profileId, { domain }));
      fx.api.clock.advance(1_000);
    }
    const first = await listOf(profileId, '?limit=2');
    expect(first.reports.map((entry) => entry.id)).toEqual([ids[2], ids[1]]);
    const rest = await listOf(profileId, `?limit=2&cursor=${first.next_cursor}`);
    expect(rest).toEqual({ reports: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    expectProblem(
      await send(`${reportsPath(profileId)}?cursor=${first.next_cursor}x`, { headers: fx.owner.auth }),
      400,
      'invalid_cursor',
    );
    expectProblem(
      await send(`${reportsPath(await createProfile())}?cursor=${first.next_cursor}`, {
        headers: fx.owner.auth,
      }),
      400,
      'invalid_cursor',
    );
    expect((await send(`${reportsPath(profileId)}?limit=0`, { headers: fx.owner.auth })).status).toBe(422);
  });
}
