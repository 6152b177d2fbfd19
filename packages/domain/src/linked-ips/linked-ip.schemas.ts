import { z } from 'zod';

const IPV4_MESSAGE =
  'must be an IPv4 address such as 203.0.113.7 (IPv6 clients are identified by the profile’s IPv6 endpoints)';

/** A linked IPv4 address (spec 1.5, 4.4; ROUTES.md): Do53 clients from it resolve with the profile. */
export const LinkedIp = z
  .object({
    id: z.uuid(),
    ip: z.ipv4().nullable().meta({
      description: 'The linked IPv4 address; null while a DDNS slot has not been set by its update URL yet.',
      example: '203.0.113.7',
    }),
    ddns: z.boolean().meta({ description: 'True when the link was created as a DDNS slot.' }),
    state: z.enum(['pending', 'active']).meta({
      description:
        '`active` once the address is proven (linked by a request from it, or set by its DDNS update URL): only active links are published to the edge and identify Do53 clients. `pending` while the address is only claimed (it blocks nobody and expires after 24 hours unproven) or a DDNS slot is still empty.',
    }),
    proof_url: z.url().optional().meta({
      description:
        'Only in the answer to the POST that created a pending address claim: its DDNS update URL. A GET on it from the claimed address within 24 hours proves it and makes the link active.',
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'LinkedIp' });
export type LinkedIp = z.infer<typeof LinkedIp>;

/**
 * POST /v1/profiles/{id}/linked-ips: exactly one of `{ip}` (link that IPv4 address) or `{ddns: true}` (an
 * empty slot its DDNS update URL fills in).
 */
export const LinkedIpCreate = z
  .object({
    ip: z.ipv4({ error: IPV4_MESSAGE }).optional().meta({ description: 'An IPv4 address to link.' }),
    ddns: z
      .literal(true, { error: 'must be true (an empty DDNS slot)' })
      .optional()
      .meta({ description: 'True creates an empty slot that the DDNS update URL sets.' }),
  })
  .strict()
  .superRefine((request, context) => {
    const sent = [request.ip, request.ddns].filter((value) => value !== undefined).length;
    if (sent === 1) return;
    context.addIssue({
      code: 'custom',
      path: ['ip'],
      message:
        sent === 0
          ? 'send ip (an IPv4 address to link) or ddns: true (an empty slot for a DDNS update URL)'
          : 'send either ip (an IPv4 address) or ddns: true, not both',
    });
  })
  .meta({ id: 'LinkedIpCreate' });
export type LinkedIpCreate = z.infer<typeof LinkedIpCreate>;

/** GET /v1/profiles/{id}/linked-ips (ROUTES.md list envelope). */
export const LinkedIpList = z
  .object({ linked_ips: z.array(LinkedIp), next_cursor: z.string().nullable() })
  .meta({ id: 'LinkedIpList' });
export type LinkedIpList = z.infer<typeof LinkedIpList>;

/** GET and POST /v1/profiles/{id}/linked-ips/{linkId}/ddns: the link's DDNS update URL. */
export const DdnsUpdateUrl = z
  .object({
    update_url: z.url().meta({
      description: '`{base_url}/v1/ddns/<token>`: a GET from a client sets the link to its IPv4 address.',
    }),
  })
  .meta({ id: 'DdnsUpdateUrl' });
export type DdnsUpdateUrl = z.infer<typeof DdnsUpdateUrl>;

/** GET /v1/ddns/{token}: the address now linked, and whether this request changed it. */
export const DdnsUpdate = z
  .object({
    ip: z.ipv4().meta({ description: 'The caller’s IPv4 address, now linked.' }),
    changed: z.boolean().meta({ description: 'False when the link was already active with this address.' }),
  })
  .meta({ id: 'DdnsUpdate' });
export type DdnsUpdate = z.infer<typeof DdnsUpdate>;
