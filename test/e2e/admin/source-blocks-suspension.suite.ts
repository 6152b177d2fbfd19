import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createOperator, recordBus, type SeenMessage, type TestOperator } from './operator-fixture.js';

interface SourceBlockBody {
  id: string;
  cidr: string;
  reason: string;
  pops: string[];
  jurisdictions: string[];
  expires_at: string;
  created_by: string;
  removed_by: string | null;
  removed_at: string | null;
}
interface SourceChange {
  block: SourceBlockBody;
  file_version: number;
}
interface Suspension {
  profile_id: string;
  org_id: string;
  version: number;
  suspended: boolean;
  reason: string | null;
  suspended_by: string | null;
  suspended_at: string | null;
}
interface AuditEntries {
  entries: { action: string; target: string; details: Record<string, unknown> }[];
}

const DAY = 86_400_000;

/**
 * Abusive-source blocks and profile suspension through HTTP (spec 2.9, 3, 4.10, 6.2, 6.3; ROUTES.md
 * "Operator"): masked CIDRs, required expiry, `{block, file_version}` answers, the operator sources file
 * republished once per change, `admin.source_block_removed`; suspension of any organisation's profile with an
 * operator-only reason, a versioned edge document that resolves without filtering or logging, and 409
 * profile_suspended for the owner's writes.
 */
export function runSourceBlocksAndSuspensionSuite(
  storage: HarnessStorage,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`source blocks and suspensions on ${storage} (spec 2.9, 3)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    let owner: TestAccount;
    let bus: SeenMessage[];

    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
      owner = await createAccount(api);
      bus = await recordBus(api, '>');
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const sources = (path = '') => `${api.url}/v1/admin/source-blocks${path}`;
    const inDays = (days: number) => new Date(api.clock.now().getTime() + days * DAY).toISOString();
    const createSource = (body: object, headers: Record<string, string> = operator.admin) =>
      send(sources(), { method: 'POST', headers, body });
    const audit = async (action: string) =>
      (
        (await send(`${api.url}/v1/auth/audit?action=${action}&limit=200`, { headers: operator.admin }))
          .json as AuditEntries
      ).entries;
    const sourceAnnouncements = () =>
      bus
        .filter((message) => message.subject === 'operator.changed')
        .map(
          (message) =>
            message.payload as {
              file: string;
              version: number;
              document: { sources: { id: string; cidr: string }[] };
            },
        )
        .filter((payload) => payload.file === 'operator_sources');

    it('refuses non-operators and tokens without the admin scope (403 insufficient_scope)', async () => {
      for (const headers of [owner.auth, operator.noAdmin]) {
        for (const [method, path] of [
          ['GET', sources()],
          ['POST', sources()],
          ['DELETE', sources('/00000000-0000-4000-8000-000000000000')],
          ['GET', `${api.url}/v1/admin/profiles/abcdef`],
          ['PATCH', `${api.url}/v1/admin/profiles/abcdef`],
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
      api.clock.advance(1_000);
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
        headers: operator.admin,
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
        (await send(sources(`/${created.block.id}`), { method: 'DELETE', headers: operator.admin })).status,
      ).toBe(404);
      const listed = (await send(sources('?status=removed'), { headers: operator.admin })).json as {
        blocks: SourceBlockBody[];
      };
      expect(listed.blocks.some((block) => block.id === created.block.id)).toBe(true);
    });

    it('suspends another organisation’s profile with an operator-only reason, and reinstates it', async () => {
      const made = await send(`${api.url}/v1/profiles`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'home' },
      });
      const profile = made.json as { id: string; version: number };
      const admin = `${api.url}/v1/admin/profiles/${profile.id}`;
      const before = (await send(admin, { headers: operator.admin })).json as Suspension;
      expect(before).toMatchObject({
        profile_id: profile.id,
        suspended: false,
        reason: null,
        version: profile.version,
      });

      const noReason = await send(admin, {
        method: 'PATCH',
        headers: operator.admin,
        body: { suspended: true },
      });
      expect(noReason.status).toBe(422);
      expect((problemOf(noReason) as { errors: { field: string }[] }).errors[0]?.field).toBe('reason');

      const reason = 'phishing kit hosting, ticket 991';
      const suspended = await send(admin, {
        method: 'PATCH',
        headers: operator.admin,
        body: { suspended: true, reason },
      });
      expect(suspended.status, suspended.text).toBe(200);
      const state = suspended.json as Suspension;
      expect(state).toMatchObject({ suspended: true, reason, version: profile.version + 1 });
      expect(state.suspended_by).toMatch(/^token:/);

      const ownerView = await send(`${api.url}/v1/profiles/${profile.id}`, { headers: owner.auth });
      expect(ownerView.status).toBe(200);
      expect(ownerView.json).toMatchObject({ suspended: true, version: profile.version + 1 });
      expect(ownerView.text).not.toContain('phishing');
      const write = await send(`${api.url}/v1/profiles/${profile.id}`, {
        method: 'PATCH',
        headers: owner.auth,
        body: { name: 'renamed' },
      });
      expect(write.status).toBe(409);
      expect(problemOf(write).code).toBe('profile_suspended');
      const documents = await eventually(
        async () =>
          bus
            .filter((message) => message.subject === `profiles.${profile.id}`)
            .map((m) => m.payload as Record<string, unknown>),
        (found) => found.some((document) => document.version === profile.version + 1),
      );
      const suspendedDocument = documents.find((document) => document.version === profile.version + 1);
      expect(suspendedDocument).toMatchObject({ suspended: true, filtering: false, logging: false });
      expect(JSON.stringify(suspendedDocument)).not.toContain('phishing');

      const same = await send(admin, {
        method: 'PATCH',
        headers: operator.admin,
        body: { suspended: true, reason },
      });
      expect((same.json as Suspension).version).toBe(profile.version + 1);

      const reinstated = await send(admin, {
        method: 'PATCH',
        headers: operator.admin,
        body: { suspended: false },
      });
      expect(reinstated.json).toMatchObject({ suspended: false, reason: null, version: profile.version + 2 });
      const renamed = await send(`${api.url}/v1/profiles/${profile.id}`, {
        method: 'PATCH',
        headers: owner.auth,
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
      const ownerAudit = await send(`${api.url}/v1/auth/audit?limit=200`, { headers: owner.auth });
      expect(ownerAudit.text).not.toContain('phishing');
    });

    it('answers 404 for an unknown profile and 422 for a malformed id', async () => {
      expect((await send(`${api.url}/v1/admin/profiles/zzzzzz`, { headers: operator.admin })).status).toBe(
        404,
      );
      const patched = await send(`${api.url}/v1/admin/profiles/zzzzzz`, {
        method: 'PATCH',
        headers: operator.admin,
        body: { suspended: false },
      });
      expect(patched.status).toBe(404);
      expect(
        (await send(`${api.url}/v1/admin/profiles/NOT_AN_ID!`, { headers: operator.admin })).status,
      ).toBe(422);
    });
  });
}
