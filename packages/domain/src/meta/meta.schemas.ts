import { z } from 'zod';

/** A point of presence of the resolver fleet (spec 4.12). */
export const Pop = z
  .object({
    id: z
      .string()
      .meta({ description: 'Short PoP id, as used in query logs and operator scopes.', example: 'yyz' }),
    name: z.string().meta({ description: 'City label.' }),
    city: z.string(),
    country: z.string().length(2).meta({ description: 'ISO 3166-1 alpha-2.' }),
    lat: z.number().min(-90).max(90).meta({ description: 'WGS 84 latitude in degrees.' }),
    lon: z.number().min(-180).max(180).meta({ description: 'WGS 84 longitude in degrees.' }),
    status: z
      .enum(['active', 'canary', 'planned'])
      .meta({ description: '`canary` serves and receives changes first; `planned` does not serve yet.' }),
  })
  .meta({ id: 'Pop' });
export type Pop = z.infer<typeof Pop>;

/** GET /v1/pops. */
export const PopList = z.object({ pops: z.array(Pop) }).meta({ id: 'PopList' });
export type PopList = z.infer<typeof PopList>;

/** Deployment facts (GET /v1/meta). */
export const Meta = z
  .object({
    api_version: z.string().meta({ description: 'The OpenAPI document version; also X-Svc-Api-Version.' }),
    environment: z.enum(['development', 'production']),
    base_url: z.string().meta({ description: 'Base address of this API.' }),
    openapi_url: z.string(),
    log_regions: z.array(z.string()).meta({ description: 'Accepted values of settings.log_region.' }),
    geoip_attribution: z.string().meta({
      description:
        'Notice to show beside countries when the GeoIP database licence asks for credit; empty when none.',
    }),
  })
  .meta({ id: 'Meta' });
export type Meta = z.infer<typeof Meta>;

/** Whether this deployment offers one feature or setting value, with the reason when it does not. */
export const Capability = z
  .object({
    supported: z.boolean(),
    reason: z.string().optional().meta({ description: 'Why the capability is unavailable here.' }),
  })
  .meta({ id: 'Capability' });
export type Capability = z.infer<typeof Capability>;

/** GET /v1/capabilities: supported settings values and features. */
export const Capabilities = z
  .object({
    settings: z
      .record(z.string(), z.record(z.string(), Capability))
      .meta({ description: 'Per dotted setting name, each known value and whether it is supported here.' }),
    features: z
      .record(z.string(), Capability)
      .meta({ description: 'Features by name, including destinations_map and list_reports.' }),
    account_deletion: z
      .object({
        cooling_off_days: z.number().int().min(1).meta({
          description: 'Days between a deletion request and the erasure; the owner can undelete until then.',
        }),
      })
      .meta({ description: 'How account deletion works on this deployment.' }),
  })
  .meta({ id: 'Capabilities' });
export type Capabilities = z.infer<typeof Capabilities>;

/** GET /v1/ip: the caller's address as the API sees it. */
export const CallerIp = z
  .object({ ip: z.string(), version: z.union([z.literal(4), z.literal(6)]) })
  .meta({ id: 'CallerIp' });
export type CallerIp = z.infer<typeof CallerIp>;
