import { expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import type {
  SourceBlockBody,
  SourceBlocksFixture,
  SourceChange,
} from './source-blocks-suspension.fixture.js';

/** Abusive-source blocks: scope, masked CIDRs, field errors, removal republished and audited (spec 2.9, 4.10). */
export function sourceBlocks(fx: SourceBlocksFixture): void {
  const { sources, inDays, createSource, audit, sourceAnnouncements } = fx;
  it('refuses non-operators and tokens without the admin scope (403 insufficient_scope)', async () => {
    for (const headers of [fx.owner.auth, fx.operator.noAdmin]) {
      for (const [method, path] of [
        ['GET', sources()],
        ['POST', sources()],
        ['DELETE', sources('/00000000-0000-4000-8000-000000000000')],
        ['GET', `${fx.api.url}/v1/admin/profiles/abcdef`],
        ['PATCH', `${fx.api.url}/v1/admin/profiles/abcdef`],
      ] as const) {
        const answer = await send(path, {
          method,
          headers,
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(problemOf(answer).code).toBe('insufficient_scope');
      }
    }
  });

  it('stores the masked prefix of IPv4 and IPv6 CIDRs and answers {block, file_version}', async () => {
    const v4 = await createSource({
      cidr: '203.0.113.77/24',
      reason: 'open resolver abuse',
      expires_at: inDays(7),
    });
    expect(v4.status, v4.text).toBe(201);
    const first = v4.json as SourceChange;
    expect(first.block).toMatchObject({
      cidr: '203.0.113.0/24',
      reason: 'open resolver abuse',
      pops: [],
      removed_at: null,
    });
    expect(v4.headers.location).toBe(`/v1/admin/source-blocks/${first.block.id}`);
    fx.api.clock.advance(1_000);
    const v6 = await createSource({
      cidr: '2001:DB8:0:0:0:0:0:1/32',
      reason: 'amplification',
      pops: ['fra1'],
      jurisdictions: ['DE'],
      expires_at: inDays(1),
    });
    expect(v6.status, v6.text).toBe(201);
    const second = v6.json as SourceChange;
    expect(second.block.cidr).toBe('2001:db8::/32');
    expect(second.file_version).toBe(first.file_version + 1);
    const host = await createSource({ cidr: '198.51.100.9', reason: 'one host', expires_at: inDays(1) });
    expect((host.json as SourceChange).block.cidr).toBe('198.51.100.9/32');
    await eventually(
      async () => sourceAnnouncements().length,
      (count) => count >= 3,
    );
    const latest = sourceAnnouncements().find((a) => a.version === second.file_version);
    expect(latest?.document.sources.map((source) => source.cidr)).toEqual([
      '203.0.113.0/24',
      '2001:db8::/32',
    ]);
    const created = await audit('admin.source_block_created');
    expect(created.some((entry) => entry.details.cidr === '203.0.113.0/24')).toBe(true);
  });

  it('answers 422 naming the field for a bad CIDR, a missing or past expiry and an empty reason', async () => {
    const cases: [object, string][] = [
      [{ cidr: '203.0.113.0/33', reason: 'x', expires_at: inDays(1) }, 'cidr'],
      [{ cidr: '2001:db8::/129', reason: 'x', expires_at: inDays(1) }, 'cidr'],
      [{ cidr: 'example.com', reason: 'x', expires_at: inDays(1) }, 'cidr'],
      [{ cidr: '203.0.113.0/24', reason: 'x' }, 'expires_at'],
      [{ cidr: '203.0.113.0/24', reason: 'x', expires_at: inDays(-1) }, 'expires_at'],
      [{ cidr: '203.0.113.0/24', reason: '', expires_at: inDays(1) }, 'reason'],
    ];
    for (const [body, field] of cases) {
      const answer = await createSource(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      const problem = problemOf(answer) as { errors: { field: string }[] };
      expect(problem.errors.map((error) => error.field)).toContain(field);
    }
  });

  it('removes a source block: the removed block, the new file_version, republished, audited admin.source_block_removed', async () => {
    const created = (await createSource({ cidr: '192.0.2.0/25', reason: 'scan', expires_at: inDays(3) }))
      .json as SourceChange;
    const removed = await send(sources(`/${created.block.id}`), {
      method: 'DELETE',
      headers: fx.operator.admin,
    });
    expect(removed.status).toBe(200);
    const change = removed.json as SourceChange;
    expect(change.file_version).toBe(created.file_version + 1);
    expect(change.block).toMatchObject({ id: created.block.id, cidr: '192.0.2.0/25' });
    expect(change.block.removed_by).toMatch(/^token:/);
    expect(change.block.removed_at).not.toBeNull();
    await eventually(
      async () => sourceAnnouncements().filter((a) => a.version === change.file_version).length,
      (count) => count === 1,
    );
    const republished = sourceAnnouncements().find((a) => a.version === change.file_version);
    expect(republished?.document.sources.some((source) => source.id === created.block.id)).toBe(false);
    const entries = await audit('admin.source_block_removed');
    expect(
      entries.find((entry) => entry.target === `admin/source-blocks/${created.block.id}`)?.details,
    ).toMatchObject({
      cidr: '192.0.2.0/25',
      file_version: change.file_version,
    });
    expect(
      (await send(sources(`/${created.block.id}`), { method: 'DELETE', headers: fx.operator.admin })).status,
    ).toBe(404);
    const listed = (await send(sources('?status=removed'), { headers: fx.operator.admin })).json as {
      blocks: SourceBlockBody[];
    };
    expect(listed.blocks.some((block) => block.id === created.block.id)).toBe(true);
  });
}
