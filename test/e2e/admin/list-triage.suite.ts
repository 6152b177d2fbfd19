import { BLOCKLIST_CATALOGUE } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createOperator, type TestOperator } from './operator-fixture.js';

interface TriagedReport {
  id: string;
  org_id: string;
  domain: string;
  status: string;
  resolution_note: string;
  resolved_at: string | null;
  triage_due_at: string;
}
interface Queue {
  reports: TriagedReport[];
  next_cursor: string | null;
}

const LIST = BLOCKLIST_CATALOGUE.lists[0]?.id ?? 1;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How far ahead the next Monday 10:00 UTC is. Reports created over a weekend are all due at Wednesday 00:00
 * (spec 2.6), so only weekday creations an hour apart are due an hour apart; the clock only moves forward.
 */
function untilMondayMorning(now: Date): number {
  const midnight = Math.floor(now.getTime() / DAY) * DAY;
  const daysAhead = (8 - now.getUTCDay()) % 7 || 7;
  return midnight + daysAhead * DAY + 10 * HOUR - now.getTime();
}

/**
 * List-report triage and the list compiler views (spec 2.6, 3, 6.4; ROUTES.md "Operator"): every
 * organisation's open reports oldest due first, accept or reject once with the reporter emailed the outcome,
 * audited; the sources and builds come from the catalogue.
 */
export function runListTriageSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`list-report triage on ${storage} (spec 3, 4.13)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    let reporter: TestAccount;
    let profileId: string;

    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
      reporter = await createAccount(api);
      const profile = await send(`${api.url}/v1/profiles`, {
        method: 'POST',
        headers: reporter.auth,
        body: {},
      });
      profileId = (profile.json as { id: string }).id;
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const report = async (domain: string): Promise<string> => {
      const answer = await send(`${api.url}/v1/profiles/${profileId}/list-reports`, {
        method: 'POST',
        headers: reporter.auth,
        body: { domain, list_id: LIST, kind: 'false_positive' },
      });
      expect(answer.status, answer.text).toBe(202);
      return (answer.json as { id: string }).id;
    };
    const queue = async (query = ''): Promise<Queue> => {
      const answer = await send(`${api.url}/v1/admin/list-reports${query}`, { headers: operator.admin });
      expect(answer.status, answer.text).toBe(200);
      return answer.json as Queue;
    };
    const decide = (id: string, body: object) =>
      send(`${api.url}/v1/admin/list-reports/${id}`, { method: 'PATCH', headers: operator.admin, body });

    it('lists open reports of every organisation, oldest due first, page by page', async () => {
      api.clock.advance(untilMondayMorning(api.clock.now()));
      const first = await report('first.example.com');
      api.clock.advance(HOUR);
      const second = await report('second.example.com');
      api.clock.advance(HOUR);
      const third = await report('third.example.com');
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await queue(`?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
        ids.push(...page.reports.map((entry) => entry.id));
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(ids.filter((id) => [first, second, third].includes(id))).toEqual([first, second, third]);
      const all = await queue('?limit=200');
      const dues = all.reports.map((entry) => entry.triage_due_at);
      expect([...dues].sort()).toEqual(dues);
      expect(all.reports.every((entry) => entry.status === 'open')).toBe(true);
      expect(all.reports.find((entry) => entry.id === first)?.org_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('queues reports due together (filed over a weekend) in the order they were filed', async () => {
      const now = api.clock.now();
      const saturday = Math.floor(now.getTime() / DAY) * DAY + ((6 - now.getUTCDay() + 7) % 7 || 7) * DAY;
      api.clock.advance(saturday + 10 * HOUR - now.getTime());
      const filed: string[] = [];
      for (const name of ['sat-one', 'sat-two', 'sat-three', 'sat-four']) {
        filed.push(await report(`${name}.example.com`));
        api.clock.advance(HOUR);
      }
      const ids: string[] = [];
      const dues = new Set<string>();
      let cursor: string | null = null;
      do {
        const page = await queue(`?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
        for (const entry of page.reports.filter((each) => filed.includes(each.id))) {
          ids.push(entry.id);
          dues.add(entry.triage_due_at);
        }
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(dues.size).toBe(1);
      expect(ids).toEqual(filed);
    });

    it('accepts a report once: the reporter is emailed, the decision audited; a second decision is 422', async () => {
      const id = await report('accepted.example.com');
      const accepted = await decide(id, {
        status: 'accepted',
        resolution_note: 'Will review for the guard list.',
      });
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.json).toMatchObject({
        id,
        status: 'accepted',
        resolution_note: 'Will review for the guard list.',
      });
      expect((accepted.json as TriagedReport).resolved_at).not.toBeNull();
      const mails = await eventually(
        () => api.mailTo(reporter.email),
        (found) => found.some((mail) => mail.includes('accepted.example.com')),
      );
      expect(mails.some((mail) => mail.includes('Will review for the guard list.'))).toBe(true);
      const again = await decide(id, { status: 'rejected', resolution_note: 'changed my mind' });
      expect(again.status).toBe(422);
      expect((problemOf(again) as { errors: { field: string }[] }).errors[0]?.field).toBe('status');
      const owners = await send(`${api.url}/v1/profiles/${profileId}/list-reports`, {
        headers: reporter.auth,
      });
      const seen = (owners.json as { reports: TriagedReport[] }).reports.find((entry) => entry.id === id);
      expect(seen).toMatchObject({ status: 'accepted', resolution_note: 'Will review for the guard list.' });
      expect((await queue('?status=accepted')).reports.map((entry) => entry.id)).toContain(id);
      expect((await queue()).reports.map((entry) => entry.id)).not.toContain(id);
      const audit = await send(`${api.url}/v1/auth/audit?action=admin.list_report_resolved`, {
        headers: operator.admin,
      });
      expect(audit.text).toContain(`admin/list-reports/${id}`);
    });

    it('rejects with a note; bad decisions are 422 and unknown reports 404', async () => {
      const id = await report('rejected.example.com');
      expect((await decide(id, { status: 'open', resolution_note: 'x' })).status).toBe(422);
      expect((await decide(id, { status: 'rejected' })).status).toBe(422);
      const rejected = await decide(id, { status: 'rejected', resolution_note: 'The list is right.' });
      expect(rejected.json).toMatchObject({ status: 'rejected', resolution_note: 'The list is right.' });
      const unknown = await decide('00000000-0000-4000-8000-000000000000', {
        status: 'rejected',
        resolution_note: 'x',
      });
      expect(unknown.status).toBe(404);
      for (const headers of [reporter.auth, operator.noAdmin]) {
        const refused = await send(`${api.url}/v1/admin/list-reports`, { headers });
        expect(refused.status).toBe(403);
      }
    });

    it('shows the compiler’s sources, never fetched, and no builds before a compilation', async () => {
      const sources = await send(`${api.url}/v1/admin/lists/sources`, { headers: operator.admin });
      expect(sources.status).toBe(200);
      const body = sources.json as {
        sources: { id: string; lists: number[]; last_fetch: unknown; entries: number }[];
        next_cursor: null;
      };
      const catalogueSources = new Set(
        BLOCKLIST_CATALOGUE.lists.flatMap((list) => list.sources.map((s) => s.id)),
      );
      expect(new Set(body.sources.map((source) => source.id))).toEqual(catalogueSources);
      expect(body.sources.every((source) => source.last_fetch === null && source.entries === 0)).toBe(true);
      const versions = await send(`${api.url}/v1/admin/lists/versions`, { headers: operator.admin });
      expect(versions.json).toEqual({ versions: [], next_cursor: null });
      expect((await send(`${api.url}/v1/admin/lists/versions`, { headers: reporter.auth })).status).toBe(403);
    });
  });
}
