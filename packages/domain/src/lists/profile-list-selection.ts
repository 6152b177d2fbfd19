import { z } from 'zod';
import { BLOCKLIST_CATALOGUE } from '../catalogue/blocklist.catalogue.js';
import {
  findParentalCategory,
  PARENTAL_CATEGORY_CATALOGUE,
} from '../catalogue/parental-categories.catalogue.js';
import { findParentalService, PARENTAL_SERVICES } from '../catalogue/parental-services.catalogue.js';
import type { FilterListKind } from '../filtering/filtering-context.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { ListVersionRecord } from './list-pipeline.ports.js';

/** A compiled list a profile applies, and why. */
export interface SelectedList {
  listId: number;
  kind: FilterListKind;
  name: string;
  /** What selected it (`list:<id>`, `service:<id>`, `category:<id>`, `security:<toggle>`; FilterList.ref). */
  ref?: string;
  /** Selected only for a device's parental override (FilterList.deviceOnly): the profile does not apply it. */
  deviceOnly?: true;
}

/** What of a device policy selects lists: its parental override (`off`, or its own services and categories). */
interface DeviceListPolicy {
  parental?: 'off' | { services: readonly string[]; categories: readonly string[] } | undefined;
}

/** A parental service whose domains come from a source not cleared for self-hosted nodes (spec 2.7). */
function fleetOnly(service: { sources: readonly { needs_audit: boolean; included: boolean }[] }): boolean {
  return service.sources.some((source) => source.included && source.needs_audit);
}

/** The parental lists of services and categories chosen, by reference (services not cleared left out for nodes). */
function parentalLists(
  parental: { services: readonly string[]; categories: readonly string[] },
  forNodes: boolean,
): SelectedList[] {
  const found: SelectedList[] = [];
  for (const serviceId of parental.services) {
    const service = findParentalService(serviceId);
    if (service === undefined || (forNodes && fleetOnly(service))) continue;
    found.push({
      listId: service.list_id,
      kind: 'parental',
      name: service.name,
      ref: `service:${serviceId}`,
    });
  }
  for (const categoryId of parental.categories) {
    const category = findParentalCategory(categoryId);
    if (category !== undefined)
      found.push({
        listId: category.list_id,
        kind: 'parental',
        name: category.name,
        ref: `category:${categoryId}`,
      });
  }
  return found;
}

/**
 * The compiled lists a profile applies (issue 29): the blocklists it enables by id, the lists of the
 * security toggles it turns on that a data feed backs (`security.<toggle>` lists), and the compiled list of
 * each parental service and category it chooses, each with the reference that selected it. A suspended
 * profile applies none. Parental services with a source still to be audited are left out for `nodes` (never
 * sent to self-hosted nodes). With `devices` (issue 38), the parental lists a device's own parental selection
 * chooses and the profile does not are added, marked `deviceOnly`: the edge applies them to that device only.
 */
export function profileListSelection(
  profile: Pick<ProfileRecord, 'lists' | 'security' | 'parental' | 'suspended'>,
  options: { forNodes?: boolean; devices?: Readonly<Record<string, DeviceListPolicy>> } = {},
): SelectedList[] {
  if (profile.suspended) return [];
  const forNodes = options.forNodes === true;
  const selected = new Map<number, SelectedList>();
  const add = (list: SelectedList) => {
    if (!selected.has(list.listId)) selected.set(list.listId, list);
  };
  for (const id of profile.lists) {
    const list = BLOCKLIST_CATALOGUE.lists.find((candidate) => candidate.id === id);
    if (list !== undefined) add({ listId: id, kind: 'list', name: list.name, ref: `list:${id}` });
  }
  for (const list of parentalLists(profile.parental, forNodes)) add(list);
  for (const [toggle, on] of Object.entries(profile.security)) {
    if (!on) continue;
    for (const list of BLOCKLIST_CATALOGUE.lists) {
      if (list.toggle === `security.${toggle}`)
        add({ listId: list.id, kind: 'security', name: list.name, ref: `security:${toggle}` });
    }
  }
  for (const device of Object.values(options.devices ?? {})) {
    if (device.parental === undefined || device.parental === 'off') continue;
    for (const list of parentalLists(device.parental, forNodes)) add({ ...list, deviceOnly: true });
  }
  return [...selected.values()];
}

/**
 * What a derived list is compiled from (a list the catalogue defines by other data rather than sources): a
 * parental service from its domains, a category from the blocklists that feed it (`parental.categories:<id>`)
 * and the domains of the services in it. Undefined for a list id that is not derived.
 */
export function derivedListInputs(listId: number): { blocklists: number[]; domains: string[] } | undefined {
  const service = PARENTAL_SERVICES.find((candidate) => candidate.list_id === listId);
  if (service !== undefined) return { blocklists: [], domains: [...service.domains] };
  const category = PARENTAL_CATEGORY_CATALOGUE.categories.find((candidate) => candidate.list_id === listId);
  if (category === undefined) return undefined;
  return {
    blocklists: BLOCKLIST_CATALOGUE.lists
      .filter((list) => list.toggle === `parental.categories:${category.id}`)
      .map((list) => list.id),
    domains: PARENTAL_SERVICES.filter((candidate) => candidate.categories.includes(category.id)).flatMap(
      (candidate) => candidate.domains,
    ),
  };
}

/** Every derived list id: the parental services' and categories'. */
export function derivedListIds(): number[] {
  return [
    ...PARENTAL_SERVICES.map((service) => service.list_id),
    ...PARENTAL_CATEGORY_CATALOGUE.categories.map((category) => category.list_id),
  ];
}

/** One compiled list of a node's manifest. */
export const NodeListArtifact = z
  .object({
    list_id: z.int().meta({ description: 'The list id (catalogue list, parental service or category).' }),
    kind: z.enum(['list', 'parental', 'security']).meta({
      description:
        '`list` (enabled by id), `parental` (a parental service or category), `security` (a security toggle’s feed).',
    }),
    name: z.string().meta({ description: 'What logs and EDE texts name the list by.' }),
    ref: z.string().optional().meta({
      description:
        'What selected the list: `list:<id>`, `service:<id>`, `category:<id>` or `security:<toggle>`; schedule assignments, service allowances and device parental overrides find lists by it. Absent in documents of servers before it.',
    }),
    device_only: z.boolean().optional().meta({
      description:
        'True for a parental list only a device override chooses: the edge applies it to that device, not to the profile.',
    }),
    version: z.int().meta({ description: 'The list’s version (one more per new content).' }),
    sha256: z.string().meta({ description: 'Hex SHA-256 of the artifact: verify the download against it.' }),
    size: z.int().meta({ description: 'The artifact’s size in bytes (uncompressed).' }),
    url: z.url().meta({
      description:
        'Where the artifact is downloaded with the node token: immutable, ETag the digest, gzip when accepted.',
    }),
  })
  .meta({ id: 'NodeListArtifact' });
export type NodeListArtifact = z.infer<typeof NodeListArtifact>;

const KIND_ORDER: Record<FilterListKind, number> = { list: 0, parental: 1, security: 2 };

/**
 * The manifest of a profile's compiled lists for its nodes: each selected list that has a compiled version,
 * by kind then list id, with the address of its artifact.
 */
export function nodeListManifest(
  selection: readonly SelectedList[],
  versions: ReadonlyMap<number, ListVersionRecord>,
  artifactUrl: (sha256: string) => string,
): NodeListArtifact[] {
  return selection
    .flatMap((list) => {
      const version = versions.get(list.listId);
      if (version === undefined) return [];
      return [
        {
          list_id: list.listId,
          kind: list.kind,
          name: list.name,
          ...(list.ref === undefined ? {} : { ref: list.ref }),
          ...(list.deviceOnly === true ? { device_only: true } : {}),
          version: version.version,
          sha256: version.sha256,
          size: version.size,
          url: artifactUrl(version.sha256),
        },
      ];
    })
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.list_id - b.list_id);
}
