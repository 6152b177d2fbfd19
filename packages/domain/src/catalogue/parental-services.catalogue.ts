import {
  type CursorPosition,
  type CursorSealer,
  type PageQuery,
  pageFrom,
} from '../pagination/pagination.js';
import { DomainError } from '../shared/domain-error.js';
import { CATALOGUES } from './catalogue.data.js';
import type {
  ParentalService,
  ParentalServiceList,
  ParentalServiceRecord,
} from './parental-service.schemas.js';

function answerOf(record: ParentalServiceRecord): ParentalService {
  const { retired: _retired, ...service } = record;
  return Object.freeze(service);
}

/** The parental services offered (spec 2.7, 4.7): retired ones left out, in list id order. */
export const PARENTAL_SERVICES: readonly ParentalService[] = Object.freeze(
  CATALOGUES.services.services.filter((record) => record.retired !== true).map(answerOf),
);

/** Envelope facts of the services catalogue. */
const PARENTAL_SERVICE_CATALOGUE_FACTS = Object.freeze({
  available: CATALOGUES.services.available,
  version: CATALOGUES.services.version,
  updated_at: CATALOGUES.services.updated_at,
});

const byId = new Map(PARENTAL_SERVICES.map((service) => [service.id, service]));

/** The offered service with id `id` (a value of parental.services), or undefined when none or retired. */
export function findParentalService(id: string): ParentalService | undefined {
  return byId.get(id);
}

/** Name under which services cursors are sealed; a cursor of another list is refused. */
const CURSOR_LIST = 'parental-services';

function afterListId(position: CursorPosition): number {
  const listId = position.list_id;
  if (typeof listId !== 'number' || !Number.isInteger(listId))
    throw new DomainError('invalid_cursor', 'The cursor is not one this list issued.');
  return listId;
}

/**
 * One page of GET /v1/parental/services in list id order. The cursor seals the last list id returned, so
 * paging stays stable if the catalogue changes between pages; a modified cursor is 400 invalid_cursor.
 */
export function listParentalServices(page: PageQuery, cursors: CursorSealer): ParentalServiceList {
  const after = page.cursor === undefined ? 0 : afterListId(cursors.open(CURSOR_LIST, page.cursor));
  const rows = PARENTAL_SERVICES.filter((service) => service.list_id > after).slice(0, page.limit + 1);
  const { items, nextCursor } = pageFrom(rows, page.limit, cursors, CURSOR_LIST, (service) => ({
    list_id: service.list_id,
  }));
  return { services: items, next_cursor: nextCursor, ...PARENTAL_SERVICE_CATALOGUE_FACTS };
}
