import type { AuditSource } from '../audit/audit.ports.js';
import type { EcsOperatorCap } from '../ecs/ecs.js';
import type { OutboxMessage } from '../outbox/outbox.ports.js';
import { pageNewestFirst } from '../pagination/keyset.js';
import type { CursorSealer } from '../pagination/pagination.js';
import { assertWithinRuleLimit, type ProfileRules } from '../rules/rules.schemas.js';
import type { Clock } from '../shared/clock.ports.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import { assertExpectedVersion } from '../shared/optimistic-concurrency.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { WebhookEventType } from '../webhooks/webhook-events.schemas.js';
import { documentPolicyOf } from './document-policy.js';
import { edgeProfileDocument, edgeTombstone, profileSubject } from './edge-document.js';
import type {
  ProfileChange,
  ProfileCommitter,
  ProfilePublishScope,
  ProfileServiceScope,
  ProfileSnapshot,
  ProfileStore,
  ProfileWriter,
  ProfileWriteScope,
} from './profile.ports.js';
import { NO_RULES, type ProfileRecord } from './profile.records.js';
import type { Profile, ProfileCreate, ProfileEndpoints, ProfilePatch } from './profile.schemas.js';
import { profileEndpointsOf } from './profile-endpoints.js';
import { newProfileId } from './profile-id.js';
import { announceProfile, nextVersion } from './profile-versions.js';
import type { ResolverSettings } from './resolver.settings.js';

/** What the profile use cases are built from. */
export interface ProfileDependencies {
  uow: ScopedUnitOfWork<ProfileServiceScope>;
  store: ProfileStore;
  /** Commits writes that change the profile row alone without holding its lock across round trips. */
  committer: ProfileCommitter;
  random: Random;
  clock: Clock;
  cursors: CursorSealer;
  resolver: ResolverSettings;
  /** The plan's limit of rules per profile. */
  rulesLimit: number;
  /**
   * Checks catalogue references of a profile's parental section; returns field errors (dotted paths) for ids
   * the catalogues do not know.
   */
  checkParental: (parental: ProfileRecord['parental']) => { field: string; message: string }[];
  /** True when a blocklist id is in the catalogue. */
  isCataloguedList: (listId: number) => boolean;
  /** The operator's cap on forwarded ECS prefixes, carried in the edge document; none when absent. */
  ecsOperatorCap?: EcsOperatorCap;
  /**
   * Whether the organisation has an endpoint subscribed to `type`: its row-only writes then take the row lock,
   * so that `profile.updated` is queued in the write's transaction. None: nobody is subscribed.
   */
  webhookSubscribed?: (orgId: string, type: WebhookEventType) => Promise<boolean>;
}

/** A change of the profile row alone: it returns the profile's new fields and reads or writes nothing else. */
export type ProfileFieldsChange = (current: ProfileRecord) => Omit<ProfileRecord, 'version' | 'updatedAt'>;

const PROFILE_LIST = 'profiles';
/** Attempts at a fresh id before giving up; 36^6 ids make a second collision vanishingly rare. */
const ID_ATTEMPTS = 5;
/**
 * Commits a row-only write tries before it takes the row lock instead: each lost attempt means another writer
 * committed in between, so under contention the lock's queue serves writers in turn.
 */
const COMMIT_ATTEMPTS = 3;

/**
 * Profiles (spec 4.2): each write bumps the version by exactly one (no lost update, no version skipped or
 * repeated), honours If-Match, and publishes the full document to the edge through the outbox in the same
 * transaction: under the row lock ({@link ProfileService.write}), or for writes of the row alone by a
 * commit conditional on the version read ({@link ProfileService.writeFields}).
 */
export class ProfileService implements ProfileWriter {
  private readonly endpointsOf: (id: string) => ProfileEndpoints;

  constructor(private readonly deps: ProfileDependencies) {
    this.endpointsOf = profileEndpointsOf(deps.resolver);
  }

  /** The public profile of a stored one. */
  view(record: ProfileRecord): Profile {
    return {
      id: record.id,
      name: record.name,
      version: record.version,
      security: record.security,
      parental: record.parental,
      settings: record.settings,
      endpoints: this.endpointsOf(record.id),
      suspended: record.suspended,
      paused_until: this.pausedUntil(record)?.toISOString() ?? null,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  }

  async create(orgId: string, request: ProfileCreate): Promise<ProfileRecord> {
    this.assertCatalogued(request.parental);
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt += 1) {
        const record: ProfileRecord = {
          id: newProfileId(this.deps.random),
          orgId,
          name: request.name,
          version: 1,
          security: request.security,
          parental: request.parental,
          settings: request.settings,
          rules: NO_RULES,
          lists: [],
          schedules: [],
          bedtime: null,
          scheduleAssignments: [],
          allowances: [],
          suspended: false,
          pausedUntil: null,
          createdAt: now,
          updatedAt: now,
        };
        if (await tx.profiles.insert(record)) {
          await this.publish(tx, record);
          await announceProfile(tx, this.deps, 'profile.created', record);
          return record;
        }
      }
      throw new Error(`no free profile id after ${ID_ATTEMPTS} attempts`);
    });
  }

  async get(orgId: string, id: string): Promise<ProfileRecord> {
    const record = await this.deps.store.find(orgId, id);
    if (record === null) throw notFound('profile');
    return record;
  }

  async list(
    orgId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ profiles: ProfileRecord[]; next_cursor: string | null }> {
    const page = await pageNewestFirst(this.deps.cursors, PROFILE_LIST, limit, cursor, (keyset) =>
      this.deps.store.list(orgId, keyset),
    );
    return { profiles: page.items, next_cursor: page.nextCursor };
  }

  /** PATCH: a JSON merge of name, security, parental and settings. */
  async patch(
    orgId: string,
    id: string,
    patch: ProfilePatch,
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    return this.writeFields(orgId, id, expectedVersion, (current) => {
      const parental = { ...current.parental, ...patch.parental };
      this.assertCatalogued(parental);
      return {
        ...current,
        name: patch.name ?? current.name,
        security: { ...current.security, ...patch.security },
        parental,
        settings: { ...current.settings, ...patch.settings },
      };
    });
  }

  /**
   * Applies `change` to a profile of the organisation as one versioned write: locks the row, checks If-Match
   * and suspension, bumps the version by one, saves, and publishes, all in one transaction of `uow` (the
   * caller's, so that `change` gets the scope it declared).
   */
  async write<Scope extends ProfileWriteScope>(
    uow: ScopedUnitOfWork<Scope>,
    orgId: string,
    id: string,
    expectedVersion: number | undefined,
    change: ProfileChange<Scope>,
  ): Promise<ProfileRecord> {
    const now = this.deps.clock.now();
    return uow.run(async (tx) => {
      const current = await tx.profiles.find(orgId, id, { forUpdate: true });
      if (current === null) throw notFound('profile');
      assertExpectedVersion(expectedVersion, current.version);
      assertWritable(current);
      const next = nextVersion(current, await change(current, tx), now);
      await tx.profiles.save(next);
      await this.publish(tx, next);
      await announceProfile(tx, this.deps, 'profile.updated', next);
      return next;
    });
  }

  /**
   * A versioned write of the profile row alone (PATCH, rules, lists), with the guarantees of {@link write}
   * but without a transaction held across round trips: reads the profile with the other parts of its
   * document in one snapshot, and commits the next version with its publication only if the profile is still
   * at the version read. Every change to any part of the document bumps that version, so a document built
   * from a stale part never commits. A lost race reads again (and answers 412
   * when If-Match named the version that moved on); after {@link COMMIT_ATTEMPTS} the write takes the lock.
   */
  private async writeFields(
    orgId: string,
    id: string,
    expectedVersion: number | undefined,
    change: ProfileFieldsChange,
  ): Promise<ProfileRecord> {
    // The one-statement commit writes the row and its publication only: a subscribed organisation's write
    // takes the lock instead, so its profile.updated event commits with it.
    if ((await this.deps.webhookSubscribed?.(orgId, 'profile.updated')) === true)
      return this.write(this.deps.uow, orgId, id, expectedVersion, change);
    for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt += 1) {
      const snapshot = await this.deps.committer.current(orgId, id);
      if (snapshot === null) throw notFound('profile');
      const current = snapshot.record;
      assertExpectedVersion(expectedVersion, current.version);
      assertWritable(current);
      const next = nextVersion(current, change(current), this.deps.clock.now());
      const publication = this.publicationOf(next, snapshot);
      if (await this.deps.committer.commitIfUnchanged(next, publication)) return next;
    }
    return this.write(this.deps.uow, orgId, id, expectedVersion, change);
  }

  /** PUT rules: replaces every rule in one version bump; 422 too_many_rules beyond the plan's limit. */
  async replaceRules(
    orgId: string,
    id: string,
    rules: ProfileRules,
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    assertWithinRuleLimit(rules, this.deps.rulesLimit);
    return this.writeFields(orgId, id, expectedVersion, (current) => ({ ...current, rules }));
  }

  /** PUT lists: the blocklists enabled by id, deduplicated in order; 422 unknown_list for ids not catalogued. */
  async replaceLists(
    orgId: string,
    id: string,
    lists: number[],
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    const unknown = lists
      .map((listId, index) => ({ listId, index }))
      .filter(({ listId }) => !this.deps.isCataloguedList(listId));
    if (unknown.length > 0) {
      throw new DomainError(
        'unknown_list',
        'Some lists are not in the blocklist catalogue (GET /v1/lists).',
        {
          fieldErrors: unknown.map(({ listId, index }) => ({
            field: `lists.${index}`,
            message: `${listId} is not a list of GET /v1/lists`,
          })),
        },
      );
    }
    return this.writeFields(orgId, id, expectedVersion, (current) => ({
      ...current,
      lists: [...new Set(lists)],
    }));
  }

  /**
   * POST pause: turns the profile's own blocking off for `minutes` from now (ROUTES.md, issue 38), as a
   * versioned write published to the edges and audited as `profile.paused`. A pause replaces a running one
   * (it may shorten it): "pause for 15 minutes" means from now, whatever was left.
   */
  async pause(
    orgId: string,
    id: string,
    minutes: number,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<ProfileRecord & { pausedUntil: Date }> {
    const now = this.deps.clock.now();
    const pausedUntil = new Date(now.getTime() + minutes * 60_000);
    const record = await this.write(this.deps.uow, orgId, id, expectedVersion, async (current, tx) => {
      await tx.audit.record({
        ...source,
        orgId,
        action: 'profile.paused',
        target: `profiles/${id}`,
        details: { minutes, paused_until: pausedUntil.toISOString() },
        at: now,
      });
      return { ...current, pausedUntil };
    });
    return { ...record, pausedUntil };
  }

  /**
   * DELETE pause: ends a running pause (a versioned write, published and audited as `profile.resumed`).
   * Idempotent: a profile that is not paused, or whose pause has passed, is left as it is.
   */
  async resume(
    orgId: string,
    id: string,
    source: AuditSource,
    expectedVersion?: number,
  ): Promise<ProfileRecord> {
    const current = await this.get(orgId, id);
    assertExpectedVersion(expectedVersion, current.version);
    if (this.pausedUntil(current) === null) return current;
    return this.write(this.deps.uow, orgId, id, expectedVersion, async (locked, tx) => {
      await tx.audit.record({
        ...source,
        orgId,
        action: 'profile.resumed',
        target: `profiles/${id}`,
        details: { paused_until: locked.pausedUntil?.toISOString() ?? null },
        at: this.deps.clock.now(),
      });
      return { ...locked, pausedUntil: null };
    });
  }

  /** The end of a running pause, null when none runs now (by the clock port; the end is exclusive). */
  private pausedUntil(record: ProfileRecord): Date | null {
    const until = record.pausedUntil;
    return until !== null && until.getTime() > this.deps.clock.now().getTime() ? until : null;
  }

  /** DELETE: removes the profile and publishes its tombstone; with `source`, audited as `profile.deleted`. */
  async delete(orgId: string, id: string, expectedVersion?: number, source?: AuditSource): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run(async (tx) => {
      const current = await tx.profiles.find(orgId, id, { forUpdate: true });
      if (current === null) throw notFound('profile');
      assertExpectedVersion(expectedVersion, current.version);
      assertWritable(current);
      if ((await tx.nodes.countEnrolled(id)) > 0) {
        throw new DomainError(
          'profile_not_empty',
          'This profile has enrolled nodes; revoke them (DELETE /v1/profiles/{id}/nodes/{nodeId}) first.',
        );
      }
      await tx.profiles.delete(orgId, id);
      await tx.outbox.enqueue({
        subject: profileSubject(id),
        payload: edgeTombstone(id, current.version + 1, now),
      });
      await emitWebhookEvent(tx, this.deps, orgId, 'profile.deleted', {
        profile_id: id,
        version: current.version + 1,
      });
      if (source !== undefined) {
        await tx.audit.record({
          ...source,
          orgId,
          action: 'profile.deleted',
          target: `profiles/${id}`,
          details: { name: current.name, version: current.version },
          at: now,
        });
      }
    });
  }

  /** Publishes the full document of a profile to the edge through the outbox of `tx` (also on restore). */
  async publish(tx: ProfilePublishScope, record: ProfileRecord): Promise<void> {
    const linkedIps = await tx.linkedIps.addresses(record.id);
    const devices = await tx.devices.documentPolicies(record.id);
    await tx.outbox.enqueue(this.publicationOf(record, { linkedIps, devices }));
  }

  /** The edge document of `record` as published now (allowances expired by the clock port left out). */
  private publicationOf(record: ProfileRecord, parts: Omit<ProfileSnapshot, 'record'>): OutboxMessage {
    const policy = documentPolicyOf(record, this.deps.clock.now(), parts.devices);
    const payload = edgeProfileDocument(record, parts.linkedIps, this.deps.ecsOperatorCap, policy);
    return { subject: profileSubject(record.id), payload };
  }

  private assertCatalogued(parental: ProfileRecord['parental']): void {
    const errors = this.deps.checkParental(parental);
    if (errors.length > 0)
      throw new DomainError('validation_failed', 'The request has invalid fields.', { fieldErrors: errors });
  }
}

/** Writes to a suspended profile answer 409 profile_suspended; reads still work (spec 7). */
export function assertWritable(profile: ProfileRecord): void {
  if (profile.suspended) {
    throw new DomainError('profile_suspended', 'This profile is suspended; it can be read but not changed.');
  }
}
