import { DEVICE_NAME_MAX_LENGTH } from './device.schemas.js';

/** Characters a sanitised device name keeps, besides the single spaces between words. */
const KEPT = /^[a-z0-9._-]$/;
const WHITESPACE = /^\s$/u;
/** A sanitised name that is its own id: one word starting with a letter or digit (never `.` or `..`). */
const SELF_NAMED = /^[a-z0-9][a-z0-9._-]*$/;
/** Hex digits of the hashed id form: 96 bits, so two names of one profile never meet in practice. */
const HASHED_ID_DIGITS = 24;
/** Domain separation of the hashed id form's digest. */
const HASHED_ID_PREFIX = 'svc-device-name:';

/**
 * The sanitised form of a name a client sent (spec 2.5 `name`):
 * 1. compatibility decomposition (NFKD), so `Ｔｖ` reads `Tv` and `Jörg` reads `Jo` + a combining mark;
 * 2. lower case;
 * 3. every whitespace character becomes a space; every character other than `a-z 0-9 . _ -` and space is
 *    dropped (combining marks, punctuation, emoji, controls), so `Jörg's iPhone` becomes `jorgs iphone`;
 * 4. runs of spaces collapse to one, and leading and trailing spaces go;
 * 5. cut to 64 characters (and a space left at the cut goes too).
 * The result may be empty (a client that sent no usable name). Sanitising a sanitised name changes nothing.
 */
export function sanitiseDeviceName(raw: string): string {
  let kept = '';
  for (const character of raw.normalize('NFKD').toLowerCase()) {
    if (WHITESPACE.test(character)) kept += ' ';
    else if (KEPT.test(character)) kept += character;
  }
  return kept.replace(/ {2,}/g, ' ').trim().slice(0, DEVICE_NAME_MAX_LENGTH).trimEnd();
}

/**
 * The device id of a sanitised name within its profile (spec 2.5: stable per profile and sanitised name, at
 * most 64 characters). A name that is one word of `a-z 0-9 . _ -` starting with a letter or digit is its own
 * id (`living-room-tv`), which keeps ids readable in log filters and URLs. Any other name (empty, with spaces,
 * or starting with `.`, `_` or `-`) gets `~` and the first 24 hex digits of the SHA-256 of the name: `~`
 * never occurs in a sanitised name, so the two forms cannot collide, and the digest is unkeyed so ids survive
 * a change of the server secret.
 *
 * @param sha256 hex SHA-256 of a text (the KeyedHash port's `sha256`).
 */
export function deviceIdOf(sanitisedName: string, sha256: (data: string) => string): string {
  if (SELF_NAMED.test(sanitisedName)) return sanitisedName;
  return `~${sha256(`${HASHED_ID_PREFIX}${sanitisedName}`).slice(0, HASHED_ID_DIGITS)}`;
}
