import { z } from 'zod';

/** Longest device id, display name and sanitised name (spec 2.5, section 8). */
const DEVICE_ID_MAX_LENGTH = 64;
export const DEVICE_NAME_MAX_LENGTH = 64;
const DEVICE_DISPLAY_NAME_MAX_LENGTH = 64;
/** Longest device notes on write (spec 2.5, section 8). */
const DEVICE_NOTES_MAX_LENGTH = 1000;

/** What kind of device it is, set by the user (spec 2.5); new devices are `other`. */
const DEVICE_KINDS = ['phone', 'laptop', 'tv', 'router', 'other'] as const;
export const DeviceKind = z
  .enum(DEVICE_KINDS, { error: () => `must be one of ${DEVICE_KINDS.join(', ')}` })
  .meta({ description: 'Kind of device, set by the user; new devices are `other`.' });
export type DeviceKind = z.infer<typeof DeviceKind>;

/**
 * How the device's name reached the resolver (spec 2.5): the DoH path (`/dns-query/<id>/<device>`), the TLS
 * server name (`<device>-<id>` host form of DoT and DoQ), or no name at all.
 */
const DEVICE_IDENTIFICATIONS = ['doh_path', 'sni', 'unknown'] as const;
export const DeviceIdentification = z
  .enum(DEVICE_IDENTIFICATIONS)
  .meta({ description: 'How the device named itself when last seen.' });
export type DeviceIdentification = z.infer<typeof DeviceIdentification>;

/** Encrypted transports a device can be seen over (spec 2.5). */
const DEVICE_TRANSPORTS = ['doh', 'doh3', 'dot', 'doq'] as const;
export const DeviceTransport = z.enum(DEVICE_TRANSPORTS);
export type DeviceTransport = z.infer<typeof DeviceTransport>;

/** A device id: stable per (profile, sanitised name), at most 64 characters (spec 2.5, 4.3). */
export const DeviceId = z
  .string()
  .min(1, 'must not be empty')
  .max(DEVICE_ID_MAX_LENGTH, `must be at most ${DEVICE_ID_MAX_LENGTH} characters`)
  .meta({
    description:
      'Device id: the sanitised name itself when it is one word of `a-z 0-9 . _ -` (starting with a letter or digit), else `~` and 24 hex digits derived from the name.',
    example: 'living-room-tv',
  });

const count = z
  .int()
  .min(0)
  .nullable()
  .meta({ description: 'Over the last 24 hours; null when counts are unavailable.' });

/** A device of a profile (spec 2.5). */
export const Device = z
  .object({
    id: DeviceId,
    name: z
      .string()
      .max(DEVICE_NAME_MAX_LENGTH)
      .meta({ description: 'The latest sanitised name the client sent; may be empty.' }),
    display_name: z
      .string()
      .max(DEVICE_DISPLAY_NAME_MAX_LENGTH)
      .nullable()
      .meta({ description: 'The user’s name for the device; shown in logs instead of the sent name.' }),
    label: z.string().meta({ description: 'display_name if set, else name, else id.' }),
    kind: DeviceKind,
    notes: z.string().meta({ description: 'The user’s notes; empty when none.' }),
    identification: DeviceIdentification,
    transport_last: DeviceTransport.nullable().meta({
      description: 'Transport of the last query seen; null when it came over none of these (plain DNS).',
    }),
    first_seen: z.iso.datetime(),
    last_seen: z.iso.datetime(),
    queries_24h: count,
    blocked_24h: count,
  })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;

/**
 * PATCH /v1/profiles/{id}/devices/{deviceId} (spec 4.3): absent fields are unchanged; null or an empty string
 * clears display_name or notes. A display name is trimmed, so one of spaces only clears it too.
 */
export const DevicePatch = z
  .object({
    display_name: z
      .string({ error: 'must be a string or null' })
      .trim()
      .max(DEVICE_DISPLAY_NAME_MAX_LENGTH, `must be at most ${DEVICE_DISPLAY_NAME_MAX_LENGTH} characters`)
      .nullable()
      .optional()
      .meta({ description: 'The user’s name for the device; null or empty clears it.' }),
    kind: DeviceKind.optional(),
    notes: z
      .string({ error: 'must be a string or null' })
      .max(DEVICE_NOTES_MAX_LENGTH, `must be at most ${DEVICE_NOTES_MAX_LENGTH} characters`)
      .nullable()
      .optional()
      .meta({ description: 'Free text; null or empty clears it.' }),
  })
  .strict()
  .meta({ id: 'DevicePatch' });
export type DevicePatch = z.infer<typeof DevicePatch>;

/** GET /v1/profiles/{id}/devices (ROUTES.md list envelope), most recently seen first. */
export const DeviceList = z
  .object({ devices: z.array(Device), next_cursor: z.string().nullable() })
  .meta({ id: 'DeviceList' });
export type DeviceList = z.infer<typeof DeviceList>;
