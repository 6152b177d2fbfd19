import { listPages } from './list-pages.js';
import type { Paginator } from './pagination.js';
import { AdminResource } from './resources/admin/admin.resource.js';
import { AuthResource } from './resources/auth/auth.resource.js';
import { CatalogueResource } from './resources/catalogue.resource.js';
import { ClientErrorsResource } from './resources/client-errors.resource.js';
import { DdnsResource } from './resources/ddns.resource.js';
import { FeedbackResource } from './resources/feedback.resource.js';
import { MetaResource } from './resources/meta.resource.js';
import { NodesResource } from './resources/nodes.resource.js';
import { OrgResource } from './resources/org/org.resource.js';
import { ProfilesResource } from './resources/profiles/profiles.resource.js';
import { TokensResource } from './resources/tokens.resource.js';
import { WaitlistResource } from './resources/waitlist.resource.js';
import {
  type ApiRequest,
  type ApiResponse,
  type ClientOptions,
  type RequestOptions,
  Transport,
} from './transport.js';

/**
 * The typed client of the svc API. Resources mirror the URL tree (`client.meta`, `client.auth`,
 * `client.auth.sessions`, `client.tokens`, `client.profiles`, `client.profiles.linkedIps`, …); `request`
 * reaches any operation directly. {@link OPERATIONS} names the method of every operation of the OpenAPI
 * document.
 */
export class SvcClient {
  /** Deployment facts and public catalogues (spec 4.12). */
  readonly meta: MetaResource;
  /** Signup, sign-in, the current account, password and sessions, `/v1/auth` (spec 4.8). */
  readonly auth: AuthResource;
  /** The waitlist, `/v1/waitlist`. */
  readonly waitlist: WaitlistResource;
  /** API tokens, `/v1/tokens` (spec 4.9). */
  readonly tokens: TokensResource;
  /** Profiles and what hangs off them (rules, lists, linked IPs, devices, list reports, setup), `/v1/profiles`. */
  readonly profiles: ProfilesResource;
  /** Self-hosted nodes, node side (`client.nodes.enrol`, and `client.nodes.self` with a node token). */
  readonly nodes: NodesResource;
  /** The DDNS update endpoint, `/v1/ddns/{token}`. */
  readonly ddns: DdnsResource;
  /** Blocklist and parental catalogues, `/v1/lists` and `/v1/parental/…` (spec 4.7). */
  readonly catalogue: CatalogueResource;
  /** Dashboard error reports, `/v1/client-errors` (spec 4.11). */
  readonly clientErrors: ClientErrorsResource;
  /** Dashboard feedback, `/v1/feedback`. */
  readonly feedback: FeedbackResource;
  /** Operator routes, `/v1/admin` (scope admin, operator accounts only). */
  readonly admin: AdminResource;
  /** The organisation the credential acts in: members, invitations, ownership, `/v1/org` (issue 39). */
  readonly org: OrgResource;
  private readonly transport: Transport;

  /** `transport` is internal: {@link SvcClient.withOptions} passes one sharing the session cookie. */
  constructor(options: ClientOptions, transport?: Transport) {
    this.transport = transport ?? new Transport(options);
    this.meta = new MetaResource(this.transport);
    this.auth = new AuthResource(this.transport);
    this.waitlist = new WaitlistResource(this.transport);
    this.tokens = new TokensResource(this.transport);
    this.profiles = new ProfilesResource(this.transport);
    this.ddns = new DdnsResource(this.transport);
    this.nodes = new NodesResource(this.transport);
    this.catalogue = new CatalogueResource(this.transport);
    this.clientErrors = new ClientErrorsResource(this.transport);
    this.feedback = new FeedbackResource(this.transport);
    this.admin = new AdminResource(this.transport);
    this.org = new OrgResource(this.transport);
  }

  /**
   * The `svc_session` cookie value this client holds (after `auth.login()`, as renewed since), or undefined.
   * It is a credential: persist it where secrets go, and pass it back as `createClient({ sessionCookie })`.
   */
  sessionCookie(): string | undefined {
    return this.transport.sessionCookie;
  }

  /**
   * The same client with per-call settings: `client.withOptions({ maxRetries: 0, timeoutMs: 5_000, signal
   * }).profiles.get(id)`. It shares this client's session cookie (a login through either signs both in).
   */
  withOptions(options: RequestOptions): SvcClient {
    return new SvcClient(this.transport.options, this.transport.withOptions(options));
  }

  /** Sends any API call; problems throw ApiError, transport failures NetworkError (TimeoutError on time-out). */
  request<T>(call: ApiRequest): Promise<ApiResponse<T>> {
    return this.transport.send<T>(call);
  }

  /**
   * Auto-paging iterator over any list answering `{<itemsKey>: [...], next_cursor}` (ROUTES.md), for example
   * `client.list('/v1/profiles', 'profiles')`.
   */
  list<T>(path: string, itemsKey: string, query: ApiRequest['query'] = {}): Paginator<T> {
    return listPages<T>(this.transport, path, itemsKey, query);
  }
}

/**
 * Creates a client: `createClient({ baseUrl, token })` for an API token, or `createClient({ baseUrl })` then
 * `client.auth.login(…)` for a session.
 */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}
