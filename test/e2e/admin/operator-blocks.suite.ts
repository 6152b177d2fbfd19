import { createHash } from 'node:crypto';
import { republishExpiredOperatorFiles, UnitOfWork } from '@svc/domain';
import { type OperatorExpiryScheduler, OperatorExpirySchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createOperator, recordBus, type SeenMessage, type TestOperator } from './operator-fixture.js';

interface BlockBody {
  id: string;
  pattern: string;
  reason_code: string;
  public_ref: string;
  note: string;
  pops: string[];
  jurisdictions: string[];
  expires_at: string | null;
  created_by: string;
  created_at: string;
  removed_by: string | null;
  removed_at: string | null;
}
interface Change {
  block: BlockBody;
  file_version: number;
}
interface Announcement {
  file: string;
  version: number;
  document: { kind: string; version: number; blocks?: Record<string, unknown>[]; sources?: unknown[] };
}
interface AuditBody {
  entries: { action: string; actor: string; target: string; details: Record<string, unknown> }[];
}

const HOUR = 3_600_000;
let sequence = 0;
/** A pattern no other test uses. */
const freshPattern = (prefix = 'blocked') =>
  `${prefix}${++sequence}-${Math.random().toString(36).slice(2, 7)}.example`;

/**
 * Operator domain blocks through HTTP (spec 2.8, 3, 4.10, 6.2, 6.3): admin scope of operator accounts only,
 * validation, 409 block_exists race-free, one `operator.changed` per change with gapless file versions, the
 * note never published, csam patterns audited only as their SHA-256 digest, expired entries republished out.
 */
export function runOperatorBlocksSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`operator blocks on ${storage} (spec 2.8, 4.10)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    let customer: TestAccount;
    let bus: SeenMessage[];

    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
      customer = await createAccount(api);
      bus = await recordBus(api, 'operator.changed');
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const url = (path = '') => `${api.url}/v1/admin/operator-blocks${path}`;
    const create = (body: object, headers: Record<string, string> = operator.admin) =>
      send(url(), { method: 'POST', headers, body });
    const created = async (body: object = {}): Promise<Change> => {
      const answer = await create({ pattern: freshPattern(), reason_code: 'abuse', ...body });
      expect(answer.status, answer.text).toBe(201);
      return answer.json as Change;
    };
    const announcementsOf = (file: string) =>
      bus.map((message) => message.payload as Announcement).filter((payload) => payload.file === file);
    const latestVersion = async (file: string): Promise<number> =>
      Math.max(0, ...announcementsOf(file).map((announcement) => announcement.version));
    const waitForVersion = (file: string, version: number) =>
      eventually(
        () => latestVersion(file),
        (latest) => latest >= version,
      );
    const auditOf = async (action: string): Promise<AuditBody['entries']> => {
      const answer = await send(`${api.url}/v1/auth/audit?action=${action}&limit=200`, {
        headers: operator.admin,
      });
      expect(answer.status).toBe(200);
      return (answer.json as AuditBody).entries;
    };

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
          customer.auth,
          operator.noAdmin,
          { cookie: `svc_session=${customer.cookie}` },
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
        headers: { ...operator.admin, 'content-type': 'application/json' },
        body: '{"pattern":',
      });
      expect(malformed.status).toBe(400);
    });

    it('records a csam pattern in the audit log only as its SHA-256 digest', async () => {
      const pattern = freshPattern('csam');
      const change = await created({ pattern, reason_code: 'csam' });
      expect(change.block).toMatchObject({ reason_code: 'csam', pops: [], jurisdictions: [] });
      const removed = await send(url(`/${change.block.id}`), { method: 'DELETE', headers: operator.admin });
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
      const removed = await send(url(`/${first.block.id}`), { method: 'DELETE', headers: operator.admin });
      expect(removed.status).toBe(200);
      const removedChange = removed.json as Change;
      expect(removedChange.block.removed_by).toMatch(/^token:/);
      expect(removedChange.block.removed_at).not.toBeNull();
      expect(removedChange.file_version).toBeGreaterThan(first.file_version);
      await waitForVersion('operator_blocks', removedChange.file_version);
      const after = announcementsOf('operator_blocks').find((a) => a.version === removedChange.file_version);
      expect(after?.document.blocks?.some((block) => block.id === first.block.id)).toBe(false);
      const gone = await send(url(`/${first.block.id}`), { method: 'DELETE', headers: operator.admin });
      expect(gone.status).toBe(404);
      expect((await create({ pattern, reason_code: 'abuse' })).status).toBe(201);
      const unknown = await send(url('/00000000-0000-4000-8000-000000000000'), {
        method: 'DELETE',
        headers: operator.admin,
      });
      expect(unknown.status).toBe(404);
      const notUuid = await send(url('/nope'), { method: 'DELETE', headers: operator.admin });
      expect(notUuid.status).toBe(422);
    });

    it('publishes exactly one operator.changed per change, versions gapless under concurrent creates and one winner per pattern', async () => {
      // The version before this test's changes, as the previous change answered it.
      const before = (await created()).file_version;
      const contested = freshPattern('race');
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => create({ pattern: freshPattern('many'), reason_code: 'abuse' })),
        ...Array.from({ length: 4 }, () => create({ pattern: contested, reason_code: 'abuse' })),
      ]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.slice(0, 6)).toEqual([201, 201, 201, 201, 201, 201]);
      expect(statuses.slice(6).sort()).toEqual([201, 409, 409, 409]);
      const versions = answers
        .filter((answer) => answer.status === 201)
        .map((answer) => (answer.json as Change).file_version)
        .sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: 7 }, (_, index) => before + 1 + index));
      await waitForVersion('operator_blocks', before + 7);
      const announced = announcementsOf('operator_blocks')
        .map((announcement) => announcement.version)
        .filter((version) => version > before);
      expect(announced.sort((a, b) => a - b)).toEqual(versions);
    });

    it('replays an idempotent create without a second change', async () => {
      const body = { pattern: freshPattern('idem'), reason_code: 'abuse' };
      const headers = { ...operator.admin, 'idempotency-key': `create-${sequence}` };
      const first = await create(body, headers);
      expect(first.status).toBe(201);
      const second = await create(body, headers);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.json).toEqual(first.json);
      const reused = await create({ ...body, reason_code: 'legal_order' }, headers);
      expect(reused.status).toBe(409);
      expect(problemOf(reused).code).toBe('idempotency_key_reused');
    });

    it('lists live and removed entries newest first with filters and cursors', async () => {
      api.clock.advance(1_000);
      const live = await created();
      api.clock.advance(1_000);
      const removed = await created();
      await send(url(`/${removed.block.id}`), { method: 'DELETE', headers: operator.admin });
      const all = (await send(url('?limit=200'), { headers: operator.admin })).json as {
        blocks: BlockBody[];
      };
      expect(all.blocks.map((block) => block.id).slice(0, 2)).toEqual([removed.block.id, live.block.id]);
      const liveOnly = (await send(url('?status=live&limit=200'), { headers: operator.admin })).json as {
        blocks: BlockBody[];
      };
      expect(liveOnly.blocks.some((block) => block.id === live.block.id)).toBe(true);
      expect(liveOnly.blocks.every((block) => block.removed_at === null)).toBe(true);
      const removedOnly = (await send(url('?status=removed&limit=200'), { headers: operator.admin }))
        .json as {
        blocks: BlockBody[];
      };
      expect(removedOnly.blocks.every((block) => block.removed_at !== null)).toBe(true);
      expect(removedOnly.blocks.some((block) => block.id === removed.block.id)).toBe(true);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await send(
          url(`?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
          {
            headers: operator.admin,
          },
        );
        expect(page.status).toBe(200);
        const body = page.json as { blocks: BlockBody[]; next_cursor: string | null };
        seen.push(...body.blocks.map((block) => block.id));
        cursor = body.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(all.blocks.map((block) => block.id));
      expect((await send(url('?status=gone'), { headers: operator.admin })).status).toBe(422);
      expect((await send(url('?cursor=forged'), { headers: operator.admin })).status).toBe(400);
    });

    it('republishes the file without an entry once its expiry passes, once, and frees its pattern', async () => {
      const pattern = freshPattern('expiring');
      const expiring = await created({
        pattern,
        expires_at: new Date(api.clock.now().getTime() + HOUR).toISOString(),
      });
      await waitForVersion('operator_blocks', expiring.file_version);
      api.clock.advance(2 * HOUR);
      const scheduler = await api.container.getAsync<OperatorExpiryScheduler>(OperatorExpirySchedulerToken);
      const version = expiring.file_version;
      // The background interval may have republished first; either way the expiry republishes exactly once.
      await scheduler.runOnce();
      await waitForVersion('operator_blocks', version + 1);
      const republished = announcementsOf('operator_blocks').find((a) => a.version === version + 1);
      expect(republished?.document.blocks?.some((block) => block.id === expiring.block.id)).toBe(false);
      expect(await scheduler.runOnce()).toBe(0);
      const expired = (await send(url('?status=expired&limit=200'), { headers: operator.admin })).json as {
        blocks: BlockBody[];
      };
      expect(expired.blocks.some((block) => block.id === expiring.block.id)).toBe(true);
      expect((await create({ pattern, reason_code: 'abuse' })).status).toBe(201);
    });

    it('republishes an expiry once when several servers’ schedulers run at the same time', async () => {
      const expiring = await created({
        expires_at: new Date(api.clock.now().getTime() + HOUR).toISOString(),
      });
      await waitForVersion('operator_blocks', expiring.file_version);
      api.clock.advance(2 * HOUR);
      const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
      const before = expiring.file_version;
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => republishExpiredOperatorFiles(uow, api.clock.now())),
      );
      // At most one of them republishes (none if the background interval was quicker).
      expect(runs.reduce((sum, files) => sum + files, 0)).toBeLessThanOrEqual(1);
      await waitForVersion('operator_blocks', before + 1);
      expect(announcementsOf('operator_blocks').filter((a) => a.version > before)).toHaveLength(1);
    });
  });
}
