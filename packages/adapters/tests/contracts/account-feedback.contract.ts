import type { ClientErrorRecord, FeedbackRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 24 * 60 * 60 * 1000;

interface Account {
  id: string;
  orgId: string;
}

/**
 * The behaviour every PreferencesRepository, ClientErrorRepository and FeedbackRepository must have (spec 2.2,
 * 2.10, 4.11): preferences replaced whole per account; reports and feedback with ids in insertion order, read
 * newest first and in keyset pages for operators; reports past retention purged by the next insert.
 */
export function runAccountFeedbackContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  /** An account of the organisation, created through the identity port (reports and feedback belong to one). */
  const signUp = async (): Promise<Account> => {
    const account = { id: crypto.randomUUID(), orgId: crypto.randomUUID() };
    await engine.uow.run((tx) =>
      tx.identity.accounts.createWithOrganisation(
        { id: account.orgId, name: 'org', createdAt: T0 },
        {
          ...account,
          role: 'owner',
          email: `feedback-${account.id}@example.test`,
          emailVerifiedAt: T0,
          passwordHash: null,
          plan: 'free',
          mfa: false,
          isAdmin: false,
          createdAt: T0,
          deletionRequestedAt: null,
          deletionDueAt: null,
        },
      ),
    );
    return account;
  };

  const clientError = (account: Account, offset: number): ClientErrorRecord => ({
    accountId: account.id,
    orgId: account.orgId,
    actor: `account:${account.id}`,
    message: `failed ${offset}`,
    stack: 'at render (app.js:1:1)',
    url: 'https://dash.example.test/profiles',
    userAgent: 'test',
    dashboardVersion: '1.0.0',
    sampledRate: 1,
    kind: 'error',
    name: 'TypeError',
    createdAt: at(offset),
  });
  const feedback = (account: Account, offset: number): FeedbackRecord => ({
    accountId: account.id,
    orgId: account.orgId,
    actor: `account:${account.id}`,
    message: `idea ${offset}`,
    rating: 4,
    url: null,
    createdAt: at(offset),
  });

  beforeAll(async () => {
    engine = await storage.open();
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('finds no preferences of an account that set none, and replaces them whole on save', async () => {
    const account = await signUp();
    await engine.uow.run(async (tx) => {
      expect(await tx.preferences.find(account.id)).toEqual({});
      await tx.preferences.save(account.id, { alerts: { node_offline: false } }, at(0));
      expect(await tx.preferences.find(account.id)).toEqual({ alerts: { node_offline: false } });
      await tx.preferences.save(account.id, {}, at(1_000));
      expect(await tx.preferences.find(account.id)).toEqual({});
      expect(await tx.preferences.find(crypto.randomUUID())).toEqual({});
    });
  });

  it('keeps a preference change only if its transaction commits', async () => {
    const account = await signUp();
    await expect(
      engine.uow.run(async (tx) => {
        await tx.preferences.save(account.id, { alerts: { node_offline: false } }, at(0));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await engine.uow.run((tx) => tx.preferences.find(account.id))).toEqual({});
  });

  it('stores error reports with increasing ids, reads them newest first and pages them since a time', async () => {
    const account = await signUp();
    const base = 10 * DAY;
    const ids = await engine.uow.run(async (tx) => {
      const stored: string[] = [];
      for (const offset of [0, 1_000, 1_000, 2_000])
        stored.push(await tx.clientErrors.insert(clientError(account, base + offset), at(0)));
      return stored;
    });
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    const [, tieLow, tieHigh, newest] = ids;
    const read = await engine.uow.run(async (tx) => {
      const latest = await tx.clientErrors.latest(2);
      const first = await tx.clientErrors.page({ since: at(base + 500), after: null, limit: 2 });
      const last = first.at(-1);
      if (last === undefined) throw new Error('empty first page');
      const second = await tx.clientErrors.page({
        since: at(base + 500),
        after: { createdAt: last.createdAt, id: last.id },
        limit: 2,
      });
      return { latest, first, second };
    });
    expect(read.latest.map((row) => row.id)).toEqual([newest, tieHigh]);
    expect(read.latest[0]).toEqual({ ...clientError(account, base + 2_000), id: newest });
    expect(read.first.map((row) => row.id)).toEqual([newest, tieHigh]);
    expect(read.second.map((row) => row.id)).toEqual([tieLow]);
  });

  it('purges error reports created before the retention bound when a report is stored', async () => {
    const account = await signUp();
    const base = 100 * DAY;
    await engine.uow.run(async (tx) => {
      await tx.clientErrors.insert(clientError(account, base), at(0));
      await tx.clientErrors.insert(clientError(account, base + 31 * DAY), at(base + DAY));
      const kept = await tx.clientErrors.page({ since: at(0), after: null, limit: 100 });
      expect(kept.map((row) => row.message)).toEqual([`failed ${base + 31 * DAY}`]);
    });
  });

  it('stores feedback, reads it newest first, pages it for operators and gives an account its own, oldest first', async () => {
    const account = await signUp();
    const other = await signUp();
    const base = 200 * DAY;
    const ids = await engine.uow.run(async (tx) => {
      const stored: string[] = [];
      stored.push(await tx.feedback.insert(feedback(account, base)));
      stored.push(await tx.feedback.insert(feedback(other, base + 1_000)));
      stored.push(await tx.feedback.insert(feedback(account, base + 2_000)));
      return stored;
    });
    await engine.uow.run(async (tx) => {
      expect((await tx.feedback.latest(2)).map((row) => row.id)).toEqual([ids[2], ids[1]]);
      expect(await tx.feedback.byAccount(account.id)).toEqual([
        { ...feedback(account, base), id: ids[0] },
        { ...feedback(account, base + 2_000), id: ids[2] },
      ]);
      const first = await tx.feedback.page({ since: at(base), after: null, limit: 2 });
      expect(first.map((row) => row.id)).toEqual([ids[2], ids[1]]);
      const last = first.at(-1);
      if (last === undefined) throw new Error('empty first page');
      const second = await tx.feedback.page({
        since: at(base),
        after: { createdAt: last.createdAt, id: last.id },
        limit: 2,
      });
      expect(second.map((row) => row.id)).toEqual([ids[0]]);
    });
  });
}
