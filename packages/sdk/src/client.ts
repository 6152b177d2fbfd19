import { Paginator } from './pagination.js';
import { MetaResource } from './resources/meta.resource.js';
import { type ApiRequest, type ApiResponse, type ClientOptions, Transport } from './transport.js';

/**
 * The typed client of the svc API. Resources mirror the URL tree (`client.meta`, later `client.profiles`, …);
 * `request` reaches any operation directly.
 */
export class SvcClient {
  readonly meta: MetaResource;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.meta = new MetaResource(this.transport);
  }

  /** Sends any API call; problems throw ApiError, transport failures NetworkError. */
  request<T>(call: ApiRequest): Promise<ApiResponse<T>> {
    return this.transport.send<T>(call);
  }

  /**
   * Auto-paging iterator over any list answering `{<itemsKey>: [...], next_cursor}` (ROUTES.md), for example
   * `client.list('/v1/profiles', 'profiles')`.
   */
  list<T>(path: string, itemsKey: string, query: ApiRequest['query'] = {}): Paginator<T> {
    return new Paginator<T>(async (cursor) => {
      const page = await this.transport.send<Record<string, unknown>>({
        method: 'GET',
        path,
        query: { ...query, cursor },
      });
      const items = page.data[itemsKey];
      const next = page.data.next_cursor;
      return {
        items: Array.isArray(items) ? (items as T[]) : [],
        nextCursor: typeof next === 'string' ? next : null,
      };
    });
  }
}

/** Creates a client: `createClient({ baseUrl, token })`. */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}
