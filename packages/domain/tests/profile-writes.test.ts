import {
  CryptoRandom,
  HmacKeyedHash,
  InProcessMessageBus,
  MemoryOutboxRelay,
  MemoryStores,
  MemoryUnitOfWork,
} from '@svc/adapters';
import {
  type BusDelivery,
  CursorSealer,
  DomainError,
  type OutboxMessage,
  type ProfileCommitter,
  ProfileCreate,
  type ProfileRecord,
  ProfileService,
  type ProfileSnapshot,
  UnitOfWorkProfileCommitter,
} from '@svc/domain';
import { ManualClock } from '@svc/testing/clock';
import { describe, expect, it } from 'vitest';

const ORG = '0b6f5e1c-4d7a-4c1e-9a55-3f1f8f0a2b01';

/**
 * A committer that lets `interfere` write the profile first, as a concurrent writer would between a writer's
 * read and its commit, on the calls `interferes` chooses (counted from 1).
 */
class RacedCommitter implements ProfileCommitter {
  calls = 0;
  interfere: () => Promise<unknown> = async () => undefined;

  constructor(
    private readonly inner: ProfileCommitter,
    private readonly interferes: (call: number) => boolean,
  ) {}

  current(orgId: string, id: string): Promise<ProfileSnapshot | null> {
    return this.inner.current(orgId, id);
  }

  async commitIfUnchanged(next: ProfileRecord, publication: OutboxMessage): Promise<boolean> {
    this.calls += 1;
    if (this.interferes(this.calls)) {
      const interfere = this.interfere;
      // The rival's own commit must not be raced in turn.
      this.interfere = async () => undefined;
      await interfere();
      this.interfere = interfere;
    }
    return this.inner.commitIfUnchanged(next, publication);
  }
}

/** A profile service on the memory stores, whose commits race as `interferes` says. */
async function setUp(interferes: (call: number) => boolean = () => false) {
  const stores = new MemoryStores();
  const published: BusDelivery[] = [];
  const bus = new InProcessMessageBus();
  await bus.subscribe('profiles.>', async (delivery) => {
    published.push(delivery);
  });
  const relay = new MemoryOutboxRelay(bus);
  relay.start();
  const uow = new MemoryUnitOfWork(relay, {
    repositories: (counters) => stores.transactionRepositories(counters),
    participants: stores.participants,
  });
  const committer = new RacedCommitter(new UnitOfWorkProfileCommitter(uow), interferes);
  const service = new ProfileService({
    uow,
    store: stores.profiles.repository(),
    committer,
    random: new CryptoRandom(),
    clock: new ManualClock(new Date('2026-01-01T00:00:00Z')),
    cursors: new CursorSealer(new HmacKeyedHash('profile-writes-test')),
    resolver: { domain: 'dns.example', ipv6Prefixes: ['2001:db8:53::/48'], ipv4Anycast: ['192.0.2.53'] },
    rulesLimit: 100,
    checkParental: () => [],
    isCataloguedList: () => true,
  });
  const profile = await service.create(ORG, ProfileCreate.parse({ name: 'home' }));
  /** Versions, lists and linked IPs of the documents published for the profile so far, in order. */
  const documents = async () => {
    await relay.drain();
    return published.map(({ payload }) => {
      const document = payload as { version: number; lists: number[]; linked_ips: string[] };
      return { version: document.version, lists: document.lists, linked_ips: document.linked_ips };
    });
  };
  return { service, committer, profile, stores, documents };
}

/**
 * Writes of the profile row alone (PATCH, rules, lists) commit without holding the row lock across round trips
 * (spec 4.2: no lost update, no version skipped or repeated, If-Match honoured, one publication per version).
 */
describe('ProfileService writes of the profile row', () => {
  it('reads again after losing the race to another writer and commits on top of it', async () => {
    const { service, committer, profile, documents } = await setUp((call) => call === 1);
    committer.interfere = () => service.replaceLists(ORG, profile.id, [7]);

    const written = await service.patch(ORG, profile.id, { name: 'mine' });

    expect(written).toMatchObject({ name: 'mine', version: 3, lists: [7] });
    expect(await service.get(ORG, profile.id)).toEqual(written);
    expect(await documents()).toEqual([
      { version: 1, lists: [], linked_ips: [] },
      { version: 2, lists: [7], linked_ips: [] },
      { version: 3, lists: [7], linked_ips: [] },
    ]);
  });

  it('answers 412 version_mismatch with If-Match when another writer won the race, changing nothing', async () => {
    const { service, committer, profile, documents } = await setUp((call) => call === 1);
    committer.interfere = () =>
      service.replaceRules(ORG, profile.id, { deny: ['rival.example'], allow: [], rewrites: [] });

    const write = service.patch(ORG, profile.id, { name: 'mine' }, 1);

    await expect(write).rejects.toBeInstanceOf(DomainError);
    await expect(write).rejects.toMatchObject({ code: 'version_mismatch' });
    expect(await service.get(ORG, profile.id)).toMatchObject({ name: 'home', version: 2 });
    expect((await documents()).map((document) => document.version)).toEqual([1, 2]);
  });

  it('takes the row lock after losing three races in a row, and still commits exactly one version', async () => {
    const { service, committer, profile, documents } = await setUp(() => true);
    let rival = 0;
    committer.interfere = async () => {
      rival += 1;
      await service.replaceLists(ORG, profile.id, [rival]);
    };

    const written = await service.patch(ORG, profile.id, { name: 'mine' });

    expect(committer.calls).toBe(3 + 3);
    expect(written).toMatchObject({ name: 'mine', version: 5, lists: [3] });
    expect((await documents()).map((document) => document.version)).toEqual([1, 2, 3, 4, 5]);
  });

  it('publishes the linked IPs with the document, read after the profile', async () => {
    const { service, profile, stores, documents } = await setUp();
    const now = new Date();
    await stores.linkedIps.repository().insert({
      id: crypto.randomUUID(),
      orgId: ORG,
      profileId: profile.id,
      ip: '192.0.2.7',
      state: 'active',
      ddns: false,
      ddnsGeneration: 1,
      ddnsLookup: 'lookup',
      createdAt: now,
      updatedAt: now,
    });

    await service.patch(ORG, profile.id, { name: 'linked' });

    expect((await documents()).at(-1)).toEqual({ version: 2, lists: [], linked_ips: ['192.0.2.7'] });
  });
});
