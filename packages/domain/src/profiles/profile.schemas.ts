import { z } from 'zod';
import { TimeZone } from '../schedules/time-zone.js';

/** An enum whose failure message lists the allowed values, as clients show it to people (spec 4.2). */
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: () => `must be one of ${values.join(', ')}` });
}

const flag = (description: string) => z.boolean({ error: 'must be true or false' }).meta({ description });

/** Profile id: 6 characters `^[a-z0-9]{6}$`, never `000000` (spec 2.3). */
export const ProfileId = z
  .string()
  .regex(/^[a-z0-9]{6}$/, 'must be 6 characters a-z or 0-9')
  .meta({ description: 'Profile id.', example: 'k3x9q2' });

/** Security toggles (spec 2.3) with their defaults for new profiles. */
export const SecuritySettings = z
  .object({
    rebinding: flag('Block DNS rebinding (private addresses in public answers).').default(true),
    idn_homograph: flag('Block internationalised names that imitate others.').default(true),
    typosquat: flag('Block typo-squatting names.').default(false),
    nrd: flag('Block newly registered domains.').default(false),
    dga: flag('Block algorithmically generated names.').default(true),
    cryptojacking: flag('Block in-browser mining.').default(true),
    threat_intel: flag('Block names on threat-intelligence feeds.').default(true),
    csam: flag('Block child sexual abuse material.').default(true),
  })
  .meta({ id: 'SecuritySettings' });
export type SecuritySettings = z.infer<typeof SecuritySettings>;

/** Parental controls (spec 2.3); categories and services are checked against the catalogues. */
export const ParentalSettings = z
  .object({
    categories: z
      .array(z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be a category id'))
      .max(100)
      .default([])
      .meta({ description: 'Category ids from GET /v1/parental/categories.' }),
    services: z
      .array(z.string().regex(/^[a-z0-9-]{1,64}$/, 'must match ^[a-z0-9-]{1,64}$'))
      .max(500)
      .default([])
      .meta({ description: 'Service ids from GET /v1/parental/services.' }),
    safe_search: flag('Force safe search on the major search engines.').default(false),
    youtube_restricted: flag('Force YouTube restricted mode.').default(false),
  })
  .meta({ id: 'ParentalSettings' });
export type ParentalSettings = z.infer<typeof ParentalSettings>;

/** Log and resolver settings (spec 2.3) with their defaults for new profiles. */
export const ProfileSettings = z
  .object({
    block_mode: oneOf(['nxdomain', 'refused', 'null', 'block-page']).default('nxdomain'),
    logs_enabled: flag('Keep query logs.').default(true),
    log_client_ip: flag('Keep client IP addresses in logs.').default(true),
    log_domains: flag('Keep queried names in logs.').default(true),
    log_destination: oneOf(['cloud', 'self-hosted', 'both', 'none'])
      .default('cloud')
      .meta({ description: 'Where query logs go.' }),
    retention_days: z
      .number({ error: 'must be an integer from 1 to 90' })
      .int('must be an integer from 1 to 90')
      .min(1, 'must be an integer from 1 to 90')
      .max(90, 'must be an integer from 1 to 90')
      .default(30)
      .meta({ description: 'Cloud log retention in days, 1 to 90.' }),
    cname_uncloak: flag('Apply rules to CNAME targets too.').default(true),
    cache_boost_ttl: z
      .number({ error: 'must be an integer from 0 to 86400' })
      .int('must be an integer from 0 to 86400')
      .min(0, 'must be an integer from 0 to 86400')
      .max(86_400, 'must be an integer from 0 to 86400')
      .default(0)
      .meta({
        description: 'Minimum TTL in seconds the resolver caches answers for; 0 keeps upstream TTLs.',
      }),
    ecs: oneOf(['off', 'anonymised', 'full']).default('off').meta({
      description:
        '`off` sends an explicit /0; `anonymised` truncates to /24 (IPv4) or /56 (IPv6); `full` sends the client address (capped by the operator).',
    }),
    node_queue_hours: z
      .number({ error: 'must be an integer from 0 to 24' })
      .int('must be an integer from 0 to 24')
      .min(0, 'must be an integer from 0 to 24')
      .max(24, 'must be an integer from 0 to 24')
      .default(0)
      .meta({ description: 'Hours of logs kept for an offline self-hosted node; 0 holds nothing.' }),
    log_region: z
      .literal('ca', { error: 'must be ca: logs are stored in Canada only (eu is not offered)' })
      .default('ca'),
    time_zone: TimeZone.default('UTC'),
  })
  .meta({ id: 'ProfileSettings' });
export type ProfileSettings = z.infer<typeof ProfileSettings>;

/** How to reach a profile's resolver (spec 2.3 endpoints). */
export const ProfileEndpoints = z
  .object({
    doh: z.string().meta({ description: 'DNS-over-HTTPS URL.' }),
    dot: z.string().meta({ description: 'DNS-over-TLS host name.' }),
    dot_device: z.string().meta({ description: 'DoT host naming a device: replace `<device>`.' }),
    doq: z.string().meta({ description: 'DNS-over-QUIC address.' }),
    ipv6: z
      .array(z.string())
      .meta({ description: 'IPv6 resolvers encoding the profile id, one per anycast /48.' }),
    ipv4: z
      .array(z.string())
      .meta({ description: 'Anycast IPv4 resolvers; they identify the profile only through a linked IP.' }),
  })
  .meta({ id: 'ProfileEndpoints' });
export type ProfileEndpoints = z.infer<typeof ProfileEndpoints>;

/** A profile (spec 2.3). Its version is also the strong ETag. */
export const Profile = z
  .object({
    id: ProfileId,
    name: z.string(),
    version: z.number().int().meta({ description: 'Incremented by every write; also the ETag.' }),
    security: SecuritySettings,
    parental: ParentalSettings,
    settings: ProfileSettings,
    endpoints: ProfileEndpoints,
    suspended: z.boolean().meta({ description: 'True while an operator has suspended the profile.' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;

const profileName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');

/** POST /v1/profiles: present fields replace defaults, omitted ones take them (spec 4.2). */
export const ProfileCreate = z
  .object({
    name: profileName.default('My profile'),
    security: SecuritySettings.strict().default(SecuritySettings.parse({})),
    parental: ParentalSettings.strict().default(ParentalSettings.parse({})),
    settings: ProfileSettings.strict().default(ProfileSettings.parse({})),
  })
  .strict()
  .meta({ id: 'ProfileCreate' });
export type ProfileCreate = z.infer<typeof ProfileCreate>;

/** A section's fields for a JSON merge: each optional and without its default (zod 4's partial keeps defaults). */
type MergeShape<S extends z.ZodRawShape> = {
  [K in keyof S]: z.ZodOptional<S[K] extends z.ZodDefault<infer Inner> ? Inner : S[K]>;
};

function mergeSection<S extends z.ZodRawShape>(section: z.ZodObject<S>) {
  const shape = Object.fromEntries(
    Object.entries(section.shape).map(([key, field]) => [
      key,
      z.optional(field instanceof z.ZodDefault ? field.unwrap() : field),
    ]),
  );
  // The mapped type states what the loop above builds; TypeScript cannot follow Object.fromEntries.
  return z.object(shape as MergeShape<S>).strict();
}

/** PATCH /v1/profiles/{id}: a JSON merge of name, security, parental and settings; omitted keys keep values. */
export const ProfilePatch = z
  .object({
    name: profileName.optional(),
    security: mergeSection(SecuritySettings).optional(),
    parental: mergeSection(ParentalSettings).optional(),
    settings: mergeSection(ProfileSettings).optional(),
  })
  .strict()
  .meta({ id: 'ProfilePatch' });
export type ProfilePatch = z.infer<typeof ProfilePatch>;

/** GET /v1/profiles. */
export const ProfileList = z
  .object({ profiles: z.array(Profile), next_cursor: z.string().nullable() })
  .meta({ id: 'ProfileList' });

/** GET and PUT /v1/profiles/{id}/lists: blocklists enabled by id (ROUTES.md). */
export const ProfileLists = z
  .object({
    lists: z
      .array(z.number({ error: 'must be a list id' }).int('must be a list id').min(1).max(65_535))
      .max(1000)
      .meta({ description: 'Ids from GET /v1/lists.' }),
  })
  .meta({ id: 'ProfileLists' });
export type ProfileLists = z.infer<typeof ProfileLists>;
