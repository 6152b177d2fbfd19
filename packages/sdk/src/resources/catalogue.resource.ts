import type { BlocklistCatalogue, ParentalCategoryCatalogue, ParentalService } from '@svc/domain';
import { listPages } from '../list-pages.js';
import type { Paginator } from '../pagination.js';
import type { Transport } from '../transport.js';

/** Options of {@link CatalogueResource.parentalServices}. */
export interface ParentalServiceListOptions {
  /** Page size, 1 to 200 (default 50); iteration still returns every service, page after page. */
  limit?: number;
}

/**
 * The public catalogues profiles refer to by id (spec 4.7, 4.12): blocklists (`/v1/lists`), parental services
 * and categories (`/v1/parental/…`). No credential needed; the answers may be cached for five minutes.
 */
export class CatalogueResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/lists: every blocklist (ids for `profiles.lists.replace`), with its sources and credit. */
  async lists(): Promise<BlocklistCatalogue> {
    return (await this.transport.send<BlocklistCatalogue>({ method: 'GET', path: '/v1/lists' })).data;
  }

  /**
   * GET /v1/parental/services: the services a profile can block by id (`parental.services`), in list id order,
   * auto-paging over `services`. The page's catalogue facts (version, availability) are left out; read them
   * with `client.request({method: 'GET', path: '/v1/parental/services'})` when needed.
   */
  parentalServices(options: ParentalServiceListOptions = {}): Paginator<ParentalService> {
    return listPages<ParentalService>(this.transport, '/v1/parental/services', 'services', {
      limit: options.limit,
    });
  }

  /** GET /v1/parental/categories: the categories a profile can block (`parental.categories`). */
  async parentalCategories(): Promise<ParentalCategoryCatalogue> {
    return (
      await this.transport.send<ParentalCategoryCatalogue>({ method: 'GET', path: '/v1/parental/categories' })
    ).data;
  }
}
