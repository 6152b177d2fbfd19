/** Most octets of a DNS name on the wire (RFC 1035 2.3.4), length octets and the root label included. */
const DNS_NAME_MAX_WIRE_OCTETS = 255;
/** Most octets of one label (RFC 1035 2.3.4). */
const DNS_LABEL_MAX_OCTETS = 63;

/**
 * Characters a logged label holds as they are: letters, digits, `-`, `_` (SRV, DKIM), `*` (wildcards) and `/`
 * (RFC 2317 reverse zones). Any other octet is written as an RFC 1035 5.1 escape (`\.`, `\\`, `\DDD`).
 */
const PLAIN_LABEL_CHARACTER = /^[A-Za-z0-9_*/-]$/;
const DIGIT = /^[0-9]$/;

/**
 * Why `text` is not a query name as a node logs it, or null when it is one: a DNS name in presentation form
 * (RFC 1035 5.1) with or without the trailing dot, labels of 1 to 63 octets, at most 255 octets on the wire;
 * the empty text (the root, or a name the profile does not log) is one too. Plain code, as the domain imports
 * only zod: the check is a dozen lines and mirrors how a resolver writes a name it received.
 */
export function queryNameProblem(text: string): string | null {
  if (text === '' || text === '.') return null;
  const name = endsWithUnescapedDot(text) ? text.slice(0, -1) : text;
  let wireOctets = 1;
  let labelOctets = 0;
  for (let index = 0; index <= name.length; index += 1) {
    const character = name[index];
    if (character === undefined || character === '.') {
      if (labelOctets === 0) return 'must be a DNS name: it has an empty label';
      wireOctets += 1 + labelOctets;
      labelOctets = 0;
      continue;
    }
    if (character === '\\') {
      const escaped = escapeLength(name, index);
      if (escaped === 0)
        return 'must be a DNS name: a "\\" escape must be "\\DDD" (at most 255) or "\\" and a character';
      index += escaped - 1;
    } else if (!PLAIN_LABEL_CHARACTER.test(character)) {
      return `must be a DNS name: "${character}" must be written as a "\\DDD" escape`;
    }
    labelOctets += 1;
    if (labelOctets > DNS_LABEL_MAX_OCTETS)
      return `must be a DNS name: a label is longer than ${DNS_LABEL_MAX_OCTETS} octets`;
  }
  if (wireOctets > DNS_NAME_MAX_WIRE_OCTETS)
    return `must be a DNS name: longer than ${DNS_NAME_MAX_WIRE_OCTETS} octets`;
  return null;
}

/** Characters of the escape starting at `name[index]` (a `\`), or 0 when it is not one. */
function escapeLength(name: string, index: number): number {
  const next = name[index + 1];
  if (next === undefined) return 0;
  if (!DIGIT.test(next)) return next.charCodeAt(0) > 0x20 && next.charCodeAt(0) < 0x7f ? 2 : 0;
  const digits = name.slice(index + 1, index + 4);
  return /^[0-9]{3}$/.test(digits) && Number(digits) <= 255 ? 4 : 0;
}

/** True when the last character is a dot that is not escaped (`a.` yes, `a\\.` no, `a\\\\.` yes). */
function endsWithUnescapedDot(text: string): boolean {
  if (!text.endsWith('.')) return false;
  let backslashes = 0;
  for (let index = text.length - 2; index >= 0 && text[index] === '\\'; index -= 1) backslashes += 1;
  return backslashes % 2 === 0;
}
