import type { ListReportRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 24 * 60 * 60 * 1000;

/**
 * The behaviour every ListReportRepository must have (spec 2.6, 3): reports bound to their organisation and
 * profile, newest first; the account's recent reports for the daily limit; the operators' queue of every
 * organisation, oldest due first; an outcome recorded once.
 */
export function runListReportRepositoryContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  const orgA = crypto.randomUUID();
  const orgB = crypto.randomUUID();
  const accountId = crypto.randomUUID();

  const report = (
    orgId: string,
    profileId: string,
    offset: number,
    overrides: Partial<ListReportRecord> = {},
  ) =>
    ({
      id: crypto.randomUUID(),
      orgId,
      profileId,
      accountId,
      domain: `d${offset}.example`,
      listId: 1,
      listVersion: 7,
      kind: 'false_positive',
      note: 'blocks our intranet',
      status: 'open',
      resolutionNote: '',
      resolvedAt: null,
      createdAt: at(offset),
      triageDueAt: at(offset + DAY),
      ...overrides,
    }) satisfies ListReportRecord;
  const insert = (...reports: ListReportRecord[]) =>
    engine.uow.run(async (tx) => {
      for (const each of reports) await tx.listReports.insert(each);
    });

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgA);
    await engine.createOrganisation(orgB);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('lists the reports of one organisation’s profile, newest first, page after page', async () => {
    const reports = [0, 1_000, 2_000].map((offset) => report(orgA, 'lrlisted', offset));
    await insert(...reports, report(orgB, 'lrlisted', 3_000), report(orgA, 'lrother', 4_000));
    const pages = await engine.uow.run(async (tx) => {
      const first = await tx.listReports.list(orgA, 'lrlisted', { limit: 2, after: null });
      const last = first.at(-1);
      if (last === undefined) throw new Error('empty first page');
      const second = await tx.listReports.list(orgA, 'lrlisted', {
        limit: 2,
        after: { createdAt: last.createdAt, id: last.id },
      });
      return [first, second];
    });
    expect(pages).toEqual([[reports[2], reports[1]], [reports[0]]]);
  });

  it('gives the account’s reports created after a time, newest first, at most the limit', async () => {
    const base = 10 * DAY;
    await insert(...[0, 1_000, 2_000, 3_000].map((offset) => report(orgA, 'lrcount', base + offset)));
    expect(
      await engine.uow.run((tx) => tx.listReports.recentByAccount(accountId, at(base + 500), 2)),
    ).toEqual([at(base + 3_000), at(base + 2_000)]);
    expect(await engine.uow.run((tx) => tx.listReports.recentByAccount(crypto.randomUUID(), T0, 20))).toEqual(
      [],
    );
  });

  it('queues reports of every organisation by due time, then creation time, then id, oldest first, filtered by status', async () => {
    const base = 100 * DAY;
    const due = { triageDueAt: at(base + DAY) };
    // Due together (filed over one weekend): the earlier filed comes first whatever its id.
    const first = report(orgA, 'lrqueue', base, { id: '00000000-0000-4000-8000-000000000003', ...due });
    const filedLater = report(orgB, 'lrqueue', base + 500, {
      id: '00000000-0000-4000-8000-000000000001',
      ...due,
    });
    const tie = report(orgB, 'lrqueue', base + 500, { id: '00000000-0000-4000-8000-000000000002', ...due });
    const later = report(orgB, 'lrqueue', base + 1_000);
    const accepted = report(orgA, 'lrqueue', base + 2_000, { status: 'accepted', resolvedAt: at(base) });
    await insert(later, tie, first, filedLater, accepted);
    const start = { triageDueAt: at(base), createdAt: T0, id: '00000000-0000-4000-8000-000000000000' };
    const queue = await engine.uow.run(async (tx) => {
      const page = await tx.listReports.triageQueue('open', { limit: 2, after: start });
      const last = page.at(-1);
      if (last === undefined) throw new Error('empty queue');
      const next = await tx.listReports.triageQueue('open', {
        limit: 2,
        after: { triageDueAt: last.triageDueAt, createdAt: last.createdAt, id: last.id },
      });
      const any = await tx.listReports.triageQueue(undefined, { limit: 10, after: start });
      return { page, next, any };
    });
    expect(queue.page).toEqual([first, filedLater]);
    expect(queue.next).toEqual([tie, later]);
    expect(queue.any).toEqual([first, filedLater, tie, later, accepted]);
  });

  it('records an open report’s outcome once, and finds a report of any organisation for triage', async () => {
    const open = report(orgB, 'lrtriage', 200 * DAY);
    await insert(open);
    await engine.uow.run(async (tx) => {
      expect(await tx.listReports.findForTriage(open.id)).toEqual(open);
      expect(await tx.listReports.resolve(open.id, 'accepted', 'unblocked', at(201 * DAY))).toBe(true);
      expect(await tx.listReports.resolve(open.id, 'rejected', 'again', at(202 * DAY))).toBe(false);
      expect(await tx.listReports.findForTriage(open.id)).toEqual({
        ...open,
        status: 'accepted',
        resolutionNote: 'unblocked',
        resolvedAt: at(201 * DAY),
      });
      expect(await tx.listReports.findForTriage(crypto.randomUUID())).toBeNull();
      expect(await tx.listReports.resolve(crypto.randomUUID(), 'rejected', '', at(0))).toBe(false);
    });
  });

  it('keeps no report of a transaction that fails', async () => {
    const lost = report(orgA, 'lrrollback', 300 * DAY);
    await expect(
      engine.uow.run(async (tx) => {
        await tx.listReports.insert(lost);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await engine.uow.run((tx) => tx.listReports.findForTriage(lost.id))).toBeNull();
  });
}
