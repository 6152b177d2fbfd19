import { z } from 'zod';

/**
 * Names the runtime's zone database lists, by lower-cased name: a case-insensitive match is stored in the
 * database's spelling, so every edge reads the same name.
 */
let listedZones: Map<string, string> | undefined;

function listed(): Map<string, string> {
  listedZones ??= new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]));
  return listedZones;
}

/** Zone names the list leaves out on some runtimes although every zone database has them. */
const ALWAYS_KNOWN = ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT'];

/** IANA names are area/location paths; fixed offsets such as `+01:00` are not zones of the database. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone's name as stored, or null when the runtime's zone database does not know it: a listed name (any
 * case) in the database's spelling, or an alias the database resolves (`Asia/Kolkata` where the list has
 * `Asia/Calcutta`, `US/Eastern`), kept as given because people recognise what they chose.
 */
function knownTimeZone(name: string): string | null {
  if (name.length > 64 || !IANA_NAME.test(name)) return null;
  const always = ALWAYS_KNOWN.find((zone) => zone.toLowerCase() === name.toLowerCase());
  if (always !== undefined) return always;
  const spelled = listed().get(name.toLowerCase());
  if (spelled !== undefined) return spelled;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    // A RangeError is the database's answer that it has no such zone: the caller reports it as a field error.
    return null;
  }
}

const UNKNOWN_ZONE = 'must be an IANA time zone such as Europe/Berlin or UTC';

/**
 * An IANA time zone name (issue 38: `settings.time_zone`), validated against the runtime's zone database. Like
 * the rule patterns, the schema stays a plain string both ways (it checks, then rewrites to the stored
 * spelling), so the OpenAPI document shows it as one.
 */
export const TimeZone = z
  .string({ error: UNKNOWN_ZONE })
  .max(64, UNKNOWN_ZONE)
  .superRefine((name, context) => {
    if (knownTimeZone(name) === null)
      context.addIssue({ code: 'custom', message: UNKNOWN_ZONE, input: name });
  })
  .overwrite((name) => knownTimeZone(name) ?? name)
  .meta({ description: 'IANA time zone; schedules are read in it.', example: 'Europe/Berlin' });
