import type { NodeAlertCutoffs, NodeRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';
import { profileRecord } from '../support/profile-records.js';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The node alert part of every NodeRepository (spec 3, 8): link sightings, and which enrolled nodes owe an
 * offline or back alert; and the owners the alerts go to (AccountRepository.listOwners). On storages whose
 * transactions run at once, a transaction claiming skips the rows another open one claimed.
 */
export function runNodeAlertContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  let n = 0;
  const orgId = crypto.randomUUID();

  /** A node of a new profile in `state`, its link last heard at `linkSeenAt` when given. */
  const node = async (state: NodeRecord['state'], linkSeenAt?: Date): Promise<string> => {
    n += 1;
    const profileId = `na${String(n).padStart(4, '0')}`;
    const profile = profileRecord(profileId, orgId, T0);
    const id = crypto.randomUUID();
    await engine.uow.run(async (tx) => {
      await tx.profiles.insert(profile);
      await tx.nodes.insert({
        id,
        orgId,
        profileId,
        name: `node-${n}`,
        state,
        enrolmentLookup: `enrol-${id}`,
        enrolmentExpiresAt: at(HOUR),
        tokenLookup: state === 'pending' ? null : `token-${id}`,
        previousTokenLookup: null,
        previousValidUntil: null,
        tokenRotatedAt: null,
        softwareVersion: null,
        shapes: [],
        createdAt: T0,
        enrolledAt: state === 'pending' ? null : T0,
        revokedAt: state === 'revoked' ? T0 : null,
        lastSeenAt: null,
      });
      if (linkSeenAt !== undefined) await tx.nodes.linkSeen([id], linkSeenAt);
    });
    return id;
  };
  /** The alerts due at the cutoffs, among `ids`, as `id:kind`. */
  const due = (cutoffs: NodeAlertCutoffs, ids: string[]) =>
    engine.uow.run(async (tx) =>
      (await tx.nodes.claimDueAlerts(cutoffs, 1000))
        .filter((alert) => ids.includes(alert.node.id))
        .map((alert) => `${alert.node.id}:${alert.kind}`),
    );
  const cutoffs = (offlineBefore: Date, pairBefore = at(-6 * HOUR)): NodeAlertCutoffs => ({
    offlineBefore,
    pairBefore,
  });

  beforeAll(async () => {
    engine = await storage.open();
    await engine.createOrganisation(orgId);
  }, 60_000);
  afterAll(async () => engine?.dispose());

  it('records link sightings monotonically, as last-seen marks too', async () => {
    const id = await node('enrolled', at(5 * MINUTE));
    await engine.uow.run((tx) => tx.nodes.linkSeen([id], at(MINUTE)));
    expect(await due(cutoffs(at(4 * MINUTE)), [id])).toEqual([]);
    expect(await due(cutoffs(at(5 * MINUTE)), [id])).toEqual([`${id}:offline`]);
    expect((await engine.uow.run((tx) => tx.nodes.findById(id)))?.lastSeenAt).toEqual(at(5 * MINUTE));
  });

  it('owes an offline alert once the link was last heard at the cutoff, then a back alert when heard again', async () => {
    const id = await node('enrolled', T0);
    expect(await due(cutoffs(at(-1)), [id])).toEqual([]);
    expect(await due(cutoffs(T0), [id])).toEqual([`${id}:offline`]);
    await engine.uow.run((tx) => tx.nodes.recordAlert(id, 'offline', at(10 * MINUTE)));
    expect(await due(cutoffs(at(MINUTE)), [id])).toEqual([]);

    await engine.uow.run((tx) => tx.nodes.linkSeen([id], at(20 * MINUTE)));
    expect(await due(cutoffs(at(10 * MINUTE)), [id])).toEqual([`${id}:back`]);
    await engine.uow.run((tx) => tx.nodes.recordAlert(id, 'back', at(21 * MINUTE)));
    expect(await due(cutoffs(at(10 * MINUTE)), [id])).toEqual([]);

    // Offline again: not while the pair that began at 10 min is within its window, then again after it.
    expect(await due(cutoffs(at(30 * MINUTE), at(5 * MINUTE)), [id])).toEqual([]);
    expect(await due(cutoffs(at(30 * MINUTE), at(10 * MINUTE)), [id])).toEqual([`${id}:offline`]);
  });

  it('never owes an alert for a pending, revoked or never linked node', async () => {
    const ids = [await node('pending', T0), await node('revoked', T0), await node('enrolled')];
    expect(await due(cutoffs(at(HOUR)), ids)).toEqual([]);
  });

  it('lists the owners of an organisation, the recipients of its alerts', async () => {
    const org = crypto.randomUUID();
    const ownerId = crypto.randomUUID();
    await engine.uow.run((tx) =>
      tx.identity.accounts.createWithOrganisation(
        { id: org, name: 'alerts', createdAt: T0 },
        {
          id: ownerId,
          orgId: org,
          role: 'owner',
          email: `owner-${ownerId}@example.test`,
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
    const owners = await engine.uow.run((tx) => tx.identity.accounts.listOwners(org));
    expect(owners.map((owner) => [owner.id, owner.email])).toEqual([
      [ownerId, `owner-${ownerId}@example.test`],
    ]);
    expect(await engine.uow.run((tx) => tx.identity.accounts.listOwners(orgId))).toEqual([]);
  });

  it.skipIf(!storage.concurrentTransactions)('skips the rows another transaction claimed', async () => {
    const id = await node('enrolled', T0);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claimedFirst: (kinds: string[]) => void = () => undefined;
    const firstClaimed = new Promise<string[]>((resolve) => {
      claimedFirst = resolve;
    });
    const first = engine.uow.run(async (tx) => {
      const claimed = await tx.nodes.claimDueAlerts(cutoffs(T0), 1000);
      claimedFirst(claimed.filter((alert) => alert.node.id === id).map((alert) => alert.kind));
      await held;
      await tx.nodes.recordAlert(id, 'offline', at(MINUTE));
    });
    expect(await firstClaimed).toEqual(['offline']);
    expect(await due(cutoffs(T0), [id])).toEqual([]);
    release();
    await first;
    expect(await due(cutoffs(T0), [id])).toEqual([]);
  });
}
