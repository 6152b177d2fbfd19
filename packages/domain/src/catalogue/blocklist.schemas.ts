import { z } from 'zod';
import { CatalogueId, LicenceExpression, ListId, WebAddress } from './catalogue.schemas.js';
import { ListFormat } from './list-format.js';

/** Profile security settings a blocklist can back (spec 2.3 `security`). */
const SECURITY_TOGGLES = [
  'rebinding',
  'idn_homograph',
  'typosquat',
  'nrd',
  'dga',
  'cryptojacking',
  'threat_intel',
  'csam',
] as const;

/**
 * The profile setting a list backs: `security.<toggle>` or `parental.categories:<category id>` (a list a
 * profile enables by id has none: null in blocklists.json, the empty string in GET /v1/lists, spec 4.12).
 */
const BLOCKLIST_TOGGLE_PATTERN = new RegExp(
  `^(?:security\\.(?:${SECURITY_TOGGLES.join('|')})|parental\\.categories:[a-z0-9-]{1,64})$`,
);

/** A source as the catalogue file names it: where it is fetched and how it is read. */
const blocklistSourceRecordShape = {
  id: CatalogueId,
  name: z.string().min(1),
  url: WebAddress.meta({ description: 'Upstream address the list compiler fetches.' }),
  format: ListFormat,
  licence: LicenceExpression,
  licence_url: WebAddress,
  attribution: z.string().meta({ description: 'Credit the licence asks for; empty when none.' }),
};

/** A source's last fetch attempt as GET /v1/lists shows it. */
const BlocklistSourceFetch = z.object({
  at: z.iso.datetime(),
  status: z.enum(['ok', 'not_modified', 'failed']).meta({
    description:
      '`ok` (fetched and compiled), `not_modified` (HTTP 304) or `failed` (unreachable, or its content refused: the last good version stays).',
  }),
  error: z.string().nullable().meta({ description: 'Why it failed or was refused; null otherwise.' }),
  entries: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'Entries of the version it gave or kept; null when it failed.' }),
});

const blocklistSourceShape = {
  ...blocklistSourceRecordShape,
  last_fetch: BlocklistSourceFetch.nullable().meta({
    description: 'The last fetch attempt; null before one.',
  }),
  entries: z
    .int()
    .min(0)
    .meta({ description: 'Entries the list compiler kept from the source’s last good fetch; 0 before one.' }),
  updated_at: z.iso.datetime().meta({
    description:
      'When the compiler last saw the source’s content change (the catalogue’s date before a fetch).',
  }),
};

/** One upstream source a blocklist is compiled from (spec 4.12), with what its last compilation found. */
const BlocklistSource = z.object(blocklistSourceShape).meta({ id: 'BlocklistSource' });

const RecordToggle = z
  .string()
  .regex(BLOCKLIST_TOGGLE_PATTERN, 'must be security.<toggle> or parental.categories:<id>')
  .nullable();

const PublicToggle = z
  .string()
  .regex(
    new RegExp(`^$|${BLOCKLIST_TOGGLE_PATTERN.source}`),
    'must be empty, security.<toggle> or parental.categories:<id>',
  )
  .meta({
    description:
      'The profile setting the list backs (`security.threat_intel`, `parental.categories:adult`); empty for a list enabled by id.',
    example: 'security.threat_intel',
  });

function blocklistShape<S extends z.ZodType, T extends z.ZodType>(source: S, toggle: T) {
  return {
    id: ListId.meta({ description: 'List id (at most 65535), stable; the list_id of list reports.' }),
    name: z.string().min(1),
    description: z.string().min(1),
    toggle,
    attribution: z.string().meta({ description: 'Credit required by the sources’ licences, one per line.' }),
    sources: z.array(source).min(1),
    version: z.int().min(1).meta({
      description:
        'Version of the list: its latest compilation’s (each new content is the next version), else the catalogue’s.',
    }),
  };
}

/** A blocklist of the catalogue (GET /v1/lists, spec 4.12). */
export const Blocklist = z
  .object({
    ...blocklistShape(BlocklistSource, PublicToggle),
    entries: z
      .int()
      .min(0)
      .meta({ description: 'Distinct blocking entries of the version in force; 0 before a compilation.' }),
    sha256: z
      .string()
      .nullable()
      .meta({ description: 'Digest of the version in force (its content address); null before one.' }),
    built_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the version in force was compiled; null before one.' }),
  })
  .meta({ id: 'Blocklist' });
export type Blocklist = z.infer<typeof Blocklist>;

/** A blocklist as kept in blocklists.json: an unknown key is a typo and is refused. */
export const BlocklistRecord = z.strictObject(
  blocklistShape(z.strictObject(blocklistSourceRecordShape), RecordToggle),
);
export type BlocklistRecord = z.infer<typeof BlocklistRecord>;

/** GET /v1/lists: the whole blocklist catalogue. */
export const BlocklistCatalogue = z
  .object({
    lists: z.array(Blocklist),
    version: z.int().min(1).meta({ description: 'Version of the catalogue.' }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'BlocklistCatalogue' });
export type BlocklistCatalogue = z.infer<typeof BlocklistCatalogue>;

/** The blocklist catalogue as the repository keeps it: lists and their sources without compilation facts. */
export interface BlocklistCatalogueRecord {
  lists: BlocklistRecord[];
  version: number;
  updated_at: string;
}
