import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { problemOf, send } from '../../support/http.js';
import { type Change, freshPattern, HOUR, type OperatorBlocksFixture } from './operator-blocks.fixture.js';

/** Who may create blocks, what a created block looks like, what is refused, and how csam patterns are audited (spec 4.10). */
export function operatorBlockCreation(fx: OperatorBlocksFixture): void {
  const { url, create, created, announcementsOf, latestVersion, waitForVersion, auditOf } = fx;
  it('refuses callers without the admin scope: 401 without a credential, 403 insufficient_scope otherwise', async () => {
    const probes = [
      { method: 'GET' as const, path: url() },
      { method: 'POST' as const, path: url(), body: { pattern: 'x.example', reason_code: 'abuse' } },
      { method: 'DELETE' as const, path: url('/00000000-0000-4000-8000-000000000000') },
    ];
    for (const probe of probes) {
      const anonymous = await send(probe.path, {
        method: probe.method,
        ...(probe.body ? { body: probe.body } : {}),
      });
      expect(anonymous.status).toBe(401);
      for (const headers of [
        fx.customer.auth,
        fx.operator.noAdmin,
        { cookie: `svc_session=${fx.customer.cookie}` },
      ]) {
        const refused = await send(probe.path, {
          method: probe.method,
          headers,
          ...(probe.body ? { body: probe.body } : {}),
        });
        expect(refused.status, `${probe.method} ${probe.path}`).toBe(403);
        expect(problemOf(refused).code).toBe('insufficient_scope');
      }
    }
  });

  it('creates a block: 201 {block, file_version}, normalised pattern, Location, note kept for operators', async () => {
    const before = await latestVersion('operator_blocks');
    const answer = await create({
      pattern: ' Ads.EXAMPLE.org. ',
      reason_code: 'legal_order',
      public_ref: 'Court order 2026/17',
      note: 'internal ticket 4411',
      pops: ['fra1', 'fra1', 'ams1'],
      jurisdictions: ['DE'],
    });
    expect(answer.status, answer.text).toBe(201);
    const change = answer.json as Change;
    expect(change.block).toMatchObject({
      pattern: 'ads.example.org',
      reason_code: 'legal_order',
      public_ref: 'Court order 2026/17',
      note: 'internal ticket 4411',
      pops: ['fra1', 'ams1'],
      jurisdictions: ['DE'],
      expires_at: null,
      removed_by: null,
      removed_at: null,
    });
    expect(change.block.created_by).toMatch(/^token:/);
    expect(answer.headers.location).toBe(`/v1/admin/operator-blocks/${change.block.id}`);
    expect(change.file_version).toBeGreaterThan(before);
    await waitForVersion('operator_blocks', change.file_version);
    const announced = announcementsOf('operator_blocks').filter((a) => a.version === change.file_version);
    expect(announced).toHaveLength(1);
    const published = announced[0]?.document.blocks?.find((block) => block.id === change.block.id);
    expect(published).toMatchObject({ pattern: 'ads.example.org', public_ref: 'Court order 2026/17' });
    expect(JSON.stringify(announced[0])).not.toContain('internal ticket 4411');
    const entries = await auditOf('admin.operator_block_created');
    const entry = entries.find(
      (candidate) => candidate.target === `admin/operator-blocks/${change.block.id}`,
    );
    expect(entry?.details).toMatchObject({ pattern: 'ads.example.org', file_version: change.file_version });
    expect(JSON.stringify(entry)).not.toContain('internal ticket 4411');
  });

  it('answers 422 validation_failed naming the field for bad bodies; csam with pops or jurisdictions is 422', async () => {
    const cases: [object, string][] = [
      [{ pattern: 'a b.example', reason_code: 'abuse' }, 'pattern'],
      [{ pattern: 'x.example', reason_code: 'spam' }, 'reason_code'],
      [{ pattern: 'x.example', reason_code: 'abuse', public_ref: 'r'.repeat(101) }, 'public_ref'],
      [{ pattern: 'x.example', reason_code: 'abuse', note: 'n'.repeat(1001) }, 'note'],
      [{ pattern: 'x.example', reason_code: 'csam', pops: ['fra1'] }, 'pops'],
      [{ pattern: 'x.example', reason_code: 'csam', jurisdictions: ['DE'] }, 'jurisdictions'],
      [{ pattern: 'x.example', reason_code: 'abuse', expires_at: 'tomorrow' }, 'expires_at'],
      [
        {
          pattern: 'x.example',
          reason_code: 'abuse',
          expires_at: new Date(Date.now() - HOUR).toISOString(),
        },
        'expires_at',
      ],
      [{ reason_code: 'abuse' }, 'pattern'],
    ];
    for (const [body, field] of cases) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      const problem = problemOf(answer) as { code: string; errors: { field: string }[] };
      expect(problem.code).toBe('validation_failed');
      expect(problem.errors.map((error) => error.field)).toContain(field);
    }
    const malformed = await send(url(), {
      method: 'POST',
      headers: { ...fx.operator.admin, 'content-type': 'application/json' },
      body: '{"pattern":',
    });
    expect(malformed.status).toBe(400);
  });

  it('records a csam pattern in the audit log only as its SHA-256 digest', async () => {
    const pattern = freshPattern('csam');
    const change = await created({ pattern, reason_code: 'csam' });
    expect(change.block).toMatchObject({ reason_code: 'csam', pops: [], jurisdictions: [] });
    const removed = await send(url(`/${change.block.id}`), { method: 'DELETE', headers: fx.operator.admin });
    expect(removed.status).toBe(200);
    for (const action of ['admin.operator_block_created', 'admin.operator_block_removed']) {
      const entry = (await auditOf(action)).find(
        (e) => e.target === `admin/operator-blocks/${change.block.id}`,
      );
      expect(entry?.details.pattern_sha256).toBe(createHash('sha256').update(pattern).digest('hex'));
      expect(JSON.stringify(entry)).not.toContain(pattern);
    }
  });

  it('answers 409 block_exists while a live entry has the pattern, and accepts it again once removed', async () => {
    const pattern = freshPattern();
    const first = await created({ pattern });
    const again = await create({ pattern: `${pattern.toUpperCase()}.`, reason_code: 'legal_order' });
    expect(again.status).toBe(409);
    expect(problemOf(again).code).toBe('block_exists');
    const removed = await send(url(`/${first.block.id}`), { method: 'DELETE', headers: fx.operator.admin });
    expect(removed.status).toBe(200);
    const removedChange = removed.json as Change;
    expect(removedChange.block.removed_by).toMatch(/^token:/);
    expect(removedChange.block.removed_at).not.toBeNull();
    expect(removedChange.file_version).toBeGreaterThan(first.file_version);
    await waitForVersion('operator_blocks', removedChange.file_version);
    const after = announcementsOf('operator_blocks').find((a) => a.version === removedChange.file_version);
    expect(after?.document.blocks?.some((block) => block.id === first.block.id)).toBe(false);
    const gone = await send(url(`/${first.block.id}`), { method: 'DELETE', headers: fx.operator.admin });
    expect(gone.status).toBe(404);
    expect((await create({ pattern, reason_code: 'abuse' })).status).toBe(201);
    const unknown = await send(url('/00000000-0000-4000-8000-000000000000'), {
      method: 'DELETE',
      headers: fx.operator.admin,
    });
    expect(unknown.status).toBe(404);
    const notUuid = await send(url('/nope'), { method: 'DELETE', headers: fx.operator.admin });
    expect(notUuid.status).toBe(422);
  });
}
