import { z } from 'zod';
import { BlocklistRecord } from './blocklist.schemas.js';
import { isRepositoryAddress } from './catalogue.schemas.js';
import { type ParentalCategory, ParentalCategoryRecord } from './parental-category.schemas.js';
import { ParentalServiceRecord } from './parental-service.schemas.js';

/** The three catalogue files as read, before any check. */
export interface CatalogueFiles {
  blocklists: unknown;
  categories: unknown;
  services: unknown;
}

/** The validated catalogues, each sorted by list id. Retired services are still here (their ids stay taken). */
export interface Catalogues {
  blocklists: { lists: BlocklistRecord[]; version: number; updated_at: string };
  categories: { categories: ParentalCategory[]; version: number; updated_at: string };
  services: { services: ParentalServiceRecord[]; available: boolean; version: number; updated_at: string };
}

/** The catalogue data breaks its rules; the message lists every problem, each naming its file and entry. */
export class CatalogueInvalidError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`The catalogue data is invalid:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    this.name = 'CatalogueInvalidError';
    this.problems = problems;
  }
}

const FILES = {
  blocklists: 'blocklists.json',
  categories: 'parental-categories.json',
  services: 'parental-services.json',
} as const;

const Version = z.int().min(1);

const BlocklistFile = z.strictObject({
  version: Version,
  updated_at: z.iso.datetime(),
  lists: z.array(z.unknown()),
});
const CategoryFile = z.strictObject({
  version: Version,
  updated_at: z.iso.datetime(),
  categories: z.array(z.unknown()),
});
const ServiceFile = z.strictObject({
  available: z.boolean(),
  version: Version,
  updated_at: z.iso.datetime(),
  services: z.array(z.unknown()),
});

function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function describeIssues(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = pathOf(issue.path);
    return `${where}${path === '' ? '' : ` ${path}`}: ${issue.message}`;
  });
}

/** `parental-services.json services[3] "youtube"`: the file, position and id of an entry, for messages. */
function entryName(file: string, key: string, index: number, value: unknown): string {
  const id = typeof value === 'object' && value !== null && 'id' in value ? value.id : undefined;
  const shown = typeof id === 'string' || typeof id === 'number' ? ` ${JSON.stringify(id)}` : '';
  return `${file} ${key}[${index}]${shown}`;
}

function parseEntries<T>(
  file: string,
  key: string,
  values: readonly unknown[],
  schema: z.ZodType<T>,
  problems: string[],
): T[] {
  const entries: T[] = [];
  values.forEach((value, index) => {
    const result = schema.safeParse(value);
    if (result.success) entries.push(result.data);
    else problems.push(...describeIssues(entryName(file, key, index, value), result.error));
  });
  return entries;
}

function parseHeader<T>(file: string, raw: unknown, schema: z.ZodType<T>, problems: string[]): T | undefined {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  problems.push(...describeIssues(file, result.error));
  return undefined;
}

function duplicatesOf<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const repeated = new Set<T>();
  for (const value of values) (seen.has(value) ? repeated : seen).add(value);
  return [...repeated];
}

function byListId<T>(listIdOf: (entry: T) => number): (a: T, b: T) => number {
  return (a, b) => listIdOf(a) - listIdOf(b);
}

/**
 * Validates the catalogue files and the rules that tie them together: ids unique in each file, list ids
 * unique across blocklists, services and categories, every category a service or list names exists and is
 * fed by something, domains are valid suffix rules without repeats, and curated sources count their domains.
 * Throws {@link CatalogueInvalidError} naming every broken entry, so a bad file stops the server at start.
 */
export function parseCatalogues(files: CatalogueFiles): Catalogues {
  const problems: string[] = [];
  const blocklistFile = parseHeader(FILES.blocklists, files.blocklists, BlocklistFile, problems);
  const categoryFile = parseHeader(FILES.categories, files.categories, CategoryFile, problems);
  const serviceFile = parseHeader(FILES.services, files.services, ServiceFile, problems);
  const lists = parseEntries(
    FILES.blocklists,
    'lists',
    blocklistFile?.lists ?? [],
    BlocklistRecord,
    problems,
  );
  const categories = parseEntries(
    FILES.categories,
    'categories',
    categoryFile?.categories ?? [],
    ParentalCategoryRecord,
    problems,
  );
  const services = parseEntries(
    FILES.services,
    'services',
    serviceFile?.services ?? [],
    ParentalServiceRecord,
    problems,
  );

  for (const id of duplicatesOf(lists.map((list) => list.id)))
    problems.push(`${FILES.blocklists}: list id ${id} is used by more than one list`);
  for (const id of duplicatesOf(categories.map((category) => category.id)))
    problems.push(`${FILES.categories}: category id "${id}" is used by more than one category`);
  for (const id of duplicatesOf(services.map((service) => service.id)))
    problems.push(`${FILES.services}: service id "${id}" is used by more than one service`);

  const listOwners = new Map<number, string[]>();
  const claim = (listId: number, owner: string) =>
    listOwners.set(listId, [...(listOwners.get(listId) ?? []), owner]);
  for (const list of lists) claim(list.id, `${FILES.blocklists} list ${list.id} "${list.name}"`);
  for (const category of categories) claim(category.list_id, `${FILES.categories} "${category.id}"`);
  for (const service of services) claim(service.list_id, `${FILES.services} "${service.id}"`);
  for (const [listId, owners] of listOwners) {
    if (owners.length > 1)
      problems.push(`list id ${listId} is used by more than one list: ${owners.join(', ')}`);
  }

  const categoryIds = new Set(categories.map((category) => category.id));
  const fed = new Set<string>();
  for (const list of lists) problems.push(...blocklistProblems(list, categoryIds, fed));
  for (const service of services) problems.push(...serviceProblems(service, categoryIds, fed));
  for (const category of categories) {
    if (!fed.has(category.id))
      problems.push(
        `${FILES.categories} "${category.id}": no blocklist or active service feeds this category`,
      );
  }

  if (
    problems.length > 0 ||
    blocklistFile === undefined ||
    categoryFile === undefined ||
    serviceFile === undefined
  )
    throw new CatalogueInvalidError(problems);
  return {
    blocklists: {
      lists: lists.sort(byListId((list) => list.id)),
      version: blocklistFile.version,
      updated_at: blocklistFile.updated_at,
    },
    categories: {
      categories: categories.sort(byListId((category) => category.list_id)),
      version: categoryFile.version,
      updated_at: categoryFile.updated_at,
    },
    services: {
      services: services.sort(byListId((service) => service.list_id)),
      available: serviceFile.available,
      version: serviceFile.version,
      updated_at: serviceFile.updated_at,
    },
  };
}

const CATEGORY_TOGGLE = 'parental.categories:';

function blocklistProblems(
  list: BlocklistRecord,
  categoryIds: ReadonlySet<string>,
  fed: Set<string>,
): string[] {
  const where = `${FILES.blocklists} list ${list.id} "${list.name}"`;
  const problems: string[] = [];
  if (list.toggle?.startsWith(CATEGORY_TOGGLE) === true) {
    const category = list.toggle.slice(CATEGORY_TOGGLE.length);
    if (categoryIds.has(category)) fed.add(category);
    else problems.push(`${where}: toggle names unknown category "${category}"`);
  }
  for (const id of duplicatesOf(list.sources.map((source) => source.id)))
    problems.push(`${where}: source id "${id}" appears more than once`);
  const credits = new Set(list.attribution.split('\n'));
  for (const source of list.sources) {
    if (source.attribution !== '' && !credits.has(source.attribution))
      problems.push(`${where}: attribution lacks the line of source "${source.id}"`);
  }
  return problems;
}

function serviceProblems(
  service: ParentalServiceRecord,
  categoryIds: ReadonlySet<string>,
  fed: Set<string>,
): string[] {
  const where = `${FILES.services} "${service.id}"`;
  const problems: string[] = [];
  if (service.toggle !== `service:${service.id}`)
    problems.push(`${where}: toggle must be "service:${service.id}", not "${service.toggle}"`);
  for (const category of service.categories) {
    if (!categoryIds.has(category)) problems.push(`${where}: unknown category "${category}"`);
    else if (service.retired !== true) fed.add(category);
  }
  for (const category of duplicatesOf(service.categories))
    problems.push(`${where}: category "${category}" is listed more than once`);
  for (const domain of duplicatesOf(service.domains))
    problems.push(`${where}: domain "${domain}" is listed more than once`);
  for (const domain of service.domains) {
    const parent = service.domains.find((other) => domain.endsWith(`.${other}`));
    if (parent !== undefined) problems.push(`${where}: domain "${domain}" is already covered by "${parent}"`);
  }
  for (const id of duplicatesOf(service.sources.map((source) => source.id)))
    problems.push(`${where}: source id "${id}" appears more than once`);
  if (!service.sources.some((source) => source.included)) problems.push(`${where}: no source is included`);
  for (const source of service.sources) {
    if (isRepositoryAddress(source.url) && source.included && source.domain_count !== service.domains.length)
      problems.push(
        `${where}: curated source "${source.id}" counts ${source.domain_count} domains, the entry lists ${service.domains.length}`,
      );
  }
  return problems;
}
