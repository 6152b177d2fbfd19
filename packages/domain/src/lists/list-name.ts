import {
  DOMAIN_LABEL_MAX_LENGTH,
  DOMAIN_NAME_MAX_LENGTH,
  normaliseDomainName,
} from '../rules/rule-pattern.js';

/** Outcome of {@link normaliseListName}: the normal form, or why the name is refused or left out. */
export type ListNameResult =
  | { ok: true; name: string }
  | { ok: false; kind: 'invalid'; message: string }
  | { ok: false; kind: 'ignored'; message: string };

/**
 * Names hosts files map to the local machine or network rather than block (StevenBlack and others start with
 * them): left out without counting as invalid.
 */
const LOCAL_NAMES: ReadonlySet<string> = new Set([
  'localhost',
  'localhost.localdomain',
  'local',
  'broadcasthost',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-mcastprefix',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-allhosts',
  '0.0.0.0',
]);

const CODE_DOT = 46;
const CODE_HYPHEN = 45;
const CODE_UNDERSCORE = 95;

/** True for a-z, 0-9, `-`, `_` (the characters a normal-form label may hold). */
function isLabelCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === CODE_HYPHEN ||
    code === CODE_UNDERSCORE
  );
}

/** True when text[start, end) is `0x` and hex digits: a number to URL parsers (WHATWG "ends in a number"). */
function isHexNumber(text: string, start: number, end: number): boolean {
  if (end - start < 2 || text.charCodeAt(start) !== 48 || text.charCodeAt(start + 1) !== 120) return false;
  for (let index = start + 2; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false;
  }
  return true;
}

/**
 * The fast path of {@link normaliseListName} for a name already lower case ASCII without `xn--` labels (most
 * list lines): checks the labels as rule-pattern.ts does without the URL parser. Undefined when the slow path
 * must decide (upper case, non-ASCII, punycode).
 */
function plainName(text: string): ListNameResult | undefined {
  const end =
    text.length > 0 && text.charCodeAt(text.length - 1) === CODE_DOT ? text.length - 1 : text.length;
  if (end === 0) return { ok: false, kind: 'invalid', message: 'no name' };
  if (end > DOMAIN_NAME_MAX_LENGTH)
    return { ok: false, kind: 'invalid', message: `longer than ${DOMAIN_NAME_MAX_LENGTH} characters` };
  let labelStart = 0;
  let lastLabelStart = 0;
  let labels = 0;
  let lastLabelNumeric = true;
  for (let index = 0; index <= end; index += 1) {
    const code = index === end ? CODE_DOT : text.charCodeAt(index);
    if (code === CODE_DOT) {
      const length = index - labelStart;
      if (length === 0) return { ok: false, kind: 'invalid', message: 'has an empty label' };
      if (length > DOMAIN_LABEL_MAX_LENGTH)
        return { ok: false, kind: 'invalid', message: `has a label longer than ${DOMAIN_LABEL_MAX_LENGTH}` };
      if (text.charCodeAt(labelStart) === CODE_HYPHEN || text.charCodeAt(index - 1) === CODE_HYPHEN)
        return { ok: false, kind: 'invalid', message: 'has a label starting or ending with "-"' };
      // `xn--` labels need the IDNA check of the URL parser.
      if (length >= 4 && text.startsWith('xn--', labelStart)) return undefined;
      labels += 1;
      lastLabelStart = labelStart;
      labelStart = index + 1;
      if (index < end) lastLabelNumeric = true;
      continue;
    }
    if (!isLabelCode(code)) return undefined;
    if (code < 48 || code > 57) lastLabelNumeric = false;
  }
  if (lastLabelNumeric || isHexNumber(text, lastLabelStart, end))
    return { ok: false, kind: 'invalid', message: 'is an IP address, not a name' };
  if (labels < 2)
    return { ok: false, kind: 'invalid', message: 'has a single label (a whole top-level domain)' };
  return { ok: true, name: end === text.length ? text : text.slice(0, end) };
}

/**
 * Normalises a name read from a list line: lower case, IDNA A-labels (through the WHATWG URL host parser, as
 * rule patterns are), no trailing dot, labels of `a-z 0-9 - _` up to 63, at most 253 characters, and at
 * least two labels (a list entry blocking a whole top-level domain is far more likely a mistake than
 * intended). Names of the local machine are `ignored`; anything else that fails is `invalid`.
 */
export function normaliseListName(raw: string): ListNameResult {
  const plain = plainName(raw);
  if (plain !== undefined) {
    if (LOCAL_NAMES.has(plain.ok ? plain.name : raw))
      return { ok: false, kind: 'ignored', message: 'a local name' };
    return plain;
  }
  const normal = normaliseDomainName(raw);
  if (!normal.ok) return { ok: false, kind: 'invalid', message: normal.message };
  if (LOCAL_NAMES.has(normal.name)) return { ok: false, kind: 'ignored', message: 'a local name' };
  if (!normal.name.includes('.'))
    return { ok: false, kind: 'invalid', message: 'has a single label (a whole top-level domain)' };
  return normal;
}
