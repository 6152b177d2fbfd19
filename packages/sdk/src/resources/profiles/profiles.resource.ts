import type { Profile, ProfilePause, Setup } from '@svc/domain';
import { ApiPromise } from '../../api-promise.js';
import { type IfMatchOptions, ifMatchHeaders } from '../../etag.js';
import { listPages } from '../../list-pages.js';
import type { Paginator } from '../../pagination.js';
import type { ProfileCreateRequest, ProfilePatchRequest } from '../../profiles.types.js';
import type { CreateOptions, Transport } from '../../transport.js';
import { DevicesResource } from './devices.resource.js';
import { LinkedIpsResource } from './linked-ips.resource.js';
import { ListReportsResource } from './list-reports.resource.js';
import { ProfileNodesResource } from './nodes.resource.js';
import { ProfileAllowancesResource } from './profile-allowances.resource.js';
import { ProfileListsResource } from './profile-lists.resource.js';
import { profilePath } from './profile-path.js';
import { ProfileRulesResource } from './profile-rules.resource.js';
import { ProfileSchedulesResource } from './profile-schedules.resource.js';
import { AnalyticsResource, LogsResource } from './query-log.resource.js';

/** Media type of an Apple configuration profile (the domain's APPLE_CONFIGURATION_MEDIA_TYPE). */
const APPLE_CONFIGURATION = 'application/x-apple-aspen-config';

/** Options of {@link ProfilesResource.list}. */
export interface ProfileListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every profile, page after page. */
  limit?: number;
}

/**
 * Profiles, `/v1/profiles` (spec 2.3, 4.2). Every write bumps the profile's `version`, which is also its strong
 * ETag: pass `profile.version` (or an answer's ETag) as `ifMatch` to write only if nobody changed the profile
 * since you read it (412 `version_mismatch` otherwise, and nothing changes).
 */
export class ProfilesResource {
  /** Deny, allow and rewrite rules, `/v1/profiles/{id}/rules`. */
  readonly rules: ProfileRulesResource;
  /** Blocklists enabled by id, `/v1/profiles/{id}/lists`. */
  readonly lists: ProfileListsResource;
  /** Named weekly schedules, `/v1/profiles/{id}/schedules`. */
  readonly schedules: ProfileSchedulesResource;
  /** Timed allowances, `/v1/profiles/{id}/allowances`. */
  readonly allowances: ProfileAllowancesResource;
  /** Linked IPv4 addresses and DDNS update URLs, `/v1/profiles/{id}/linked-ips`. */
  readonly linkedIps: LinkedIpsResource;
  /** Devices seen by the resolvers, `/v1/profiles/{id}/devices`. */
  readonly devices: DevicesResource;
  /** Reports of domains a blocklist gets wrong, `/v1/profiles/{id}/list-reports`. */
  readonly listReports: ListReportsResource;
  /** Self-hosted nodes and their enrolment codes, `/v1/profiles/{id}/nodes`. */
  readonly nodes: ProfileNodesResource;
  /** Query logs, `/v1/profiles/{id}/logs` (scope logs:read). */
  readonly logs: LogsResource;
  /** Analytics aggregates, `/v1/profiles/{id}/analytics/{shape}` (scope analytics:read). */
  readonly analytics: AnalyticsResource;

  constructor(private readonly transport: Transport) {
    this.rules = new ProfileRulesResource(transport);
    this.lists = new ProfileListsResource(transport);
    this.schedules = new ProfileSchedulesResource(transport);
    this.allowances = new ProfileAllowancesResource(transport);
    this.linkedIps = new LinkedIpsResource(transport);
    this.devices = new DevicesResource(transport);
    this.listReports = new ListReportsResource(transport);
    this.nodes = new ProfileNodesResource(transport);
    this.logs = new LogsResource(transport);
    this.analytics = new AnalyticsResource(transport);
  }

  /**
   * POST /v1/profiles (scope profiles:write): every field is optional; present fields replace the defaults.
   * Sends an Idempotency-Key (generated, or `options.idempotencyKey`) reused across retries.
   */
  create(request: ProfileCreateRequest = {}, options: CreateOptions = {}): ApiPromise<Profile> {
    return new ApiPromise(
      this.transport.send<Profile>({
        method: 'POST',
        path: '/v1/profiles',
        body: request,
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      }),
    );
  }

  /** GET /v1/profiles/{id} (scope profiles:read). Throws ApiError 404 `not_found`, also for another org's. */
  get(id: string): ApiPromise<Profile> {
    return new ApiPromise(this.transport.send<Profile>({ method: 'GET', path: profilePath(id) }));
  }

  /** GET /v1/profiles (scope profiles:read): the organisation's profiles, newest first, auto-paging. */
  list(options: ProfileListOptions = {}): Paginator<Profile> {
    return listPages<Profile>(this.transport, '/v1/profiles', 'profiles', { limit: options.limit });
  }

  /**
   * PATCH /v1/profiles/{id} (scope profiles:write): a JSON merge of name, security, parental and settings;
   * omitted keys keep their values. Answers the profile after the change, with its new `version`.
   */
  update(id: string, patch: ProfilePatchRequest, options: IfMatchOptions = {}): ApiPromise<Profile> {
    return new ApiPromise(
      this.transport.send<Profile>({
        method: 'PATCH',
        path: profilePath(id),
        body: patch,
        headers: ifMatchHeaders(options.ifMatch),
      }),
    );
  }

  /** DELETE /v1/profiles/{id} (scope profiles:write): the edge receives a tombstone. */
  async delete(id: string, options: IfMatchOptions = {}): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: profilePath(id),
      headers: ifMatchHeaders(options.ifMatch),
    });
  }

  /**
   * POST /v1/profiles/{id}/pause (scope profiles:write): turns the profile's own blocking off for `minutes`
   * (1 to 1440) from now, at every edge and node; rewrites and operator blocks still apply. A new pause replaces
   * a running one. Answers when it ends (exclusive); the edges end it by their own clocks. Throws ApiError 422
   * `validation_failed` for other minutes, 409 `profile_suspended` while an operator suspended the profile. Sends
   * an Idempotency-Key reused across retries, so a retried pause does not move the end.
   */
  pause(id: string, minutes: number, options: IfMatchOptions & CreateOptions = {}): ApiPromise<ProfilePause> {
    return new ApiPromise(
      this.transport.send<ProfilePause>({
        method: 'POST',
        path: profilePath(id, 'pause'),
        body: { minutes },
        headers: ifMatchHeaders(options.ifMatch),
        idempotent: true,
        idempotencyKey: options.idempotencyKey,
      }),
    );
  }

  /**
   * DELETE /v1/profiles/{id}/pause (scope profiles:write): ends a running pause at once. Idempotent: resolves
   * the same when the profile is not paused.
   */
  async resume(id: string, options: IfMatchOptions = {}): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: profilePath(id, 'pause'),
      headers: ifMatchHeaders(options.ifMatch),
    });
  }

  /**
   * GET /v1/profiles/{id}/setup (scope profiles:read): DoH URL, DoT host, DoQ address and resolvers, with
   * short steps per platform.
   */
  async setup(id: string): Promise<Setup> {
    return (await this.transport.send<Setup>({ method: 'GET', path: profilePath(id, 'setup') })).data;
  }

  /**
   * GET /v1/profiles/{id}/setup/apple (scope profiles:read): the Apple configuration profile (an XML plist,
   * `.mobileconfig`) for DNS over HTTPS on iOS 14+ and macOS 11+, as text to save or serve. Its identifiers are
   * stable per profile, so installing a new download replaces the old one.
   */
  async appleConfiguration(id: string): Promise<string> {
    const response = await this.transport.send<string>({
      method: 'GET',
      path: profilePath(id, 'setup', 'apple'),
      headers: { accept: `${APPLE_CONFIGURATION}, application/problem+json` },
      responseType: 'text',
    });
    return response.data;
  }
}
