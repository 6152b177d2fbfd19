/**
 * Rule patterns of deny, allow and rewrite rules (spec 2.4): one syntax, three forms.
 *
 * | Form            | Matches                                   | Does not match            |
 * |-----------------|-------------------------------------------|---------------------------|
 * | `example.com`   | `example.com` and every name under it     | `notexample.com`          |
 * | `=example.com`  | exactly `example.com`                     | `www.example.com`         |
 * | `*.example.com` | every name under `example.com`            | `example.com` itself      |
 *
 * The bare form covers the subdomains because that is what people mean by blocking a domain, and it is how
 * the parental catalogue's domain lists read (spec 2.7: "blocks the name and everything under it").
 *
 * Normal form: lower case, IDNA A-labels (`bücher.example` is stored as `xn--bcher-kva.example`), no trailing
 * dot, with the prefix kept. Stored, compared, deduplicated and shown in that form.
 */

/** Longest domain name in presentation form without the trailing dot (RFC 1035 2.3.4, 255 octets on the wire). */
export const DOMAIN_NAME_MAX_LENGTH = 253;
/** Longest label (RFC 1035 2.3.4). */
export const DOMAIN_LABEL_MAX_LENGTH = 63;

/** Which names a pattern covers; see the module comment. */
export type RulePatternForm = 'subtree' | 'exact' | 'subdomains';

/** Outcome of {@link normaliseRulePattern}: the normal form, or a message saying what is allowed. */
export type RulePatternResult = { ok: true; pattern: string } | { ok: false; message: string };

/** Outcome of {@link normaliseDomainName}. */
export type DomainNameResult = { ok: true; name: string } | { ok: false; message: string };

const FORMS_HINT =
  'use a domain name (example.com), an exact name (=example.com) or subdomains only (*.example.com)';

/**
 * Characters the WHATWG URL parser would read as something other than a name (a path, port, user, query,
 * fragment, percent escape or IPv6 literal), refused before IDNA so no input is silently reinterpreted.
 */
const REINTERPRETED = /[/\\:@?#%[\]\s]/u;
/** ASCII allowed in a name before IDNA; anything else ASCII is named in the message. */
const NAME_ASCII = /^[a-z0-9._-]$/;
const LABEL = /^[a-z0-9_-]+$/;
/** A last label the URL parser reads as an IPv4 number (WHATWG "ends in a number"). */
const NUMERIC_LABEL = /^([0-9]+|0x[0-9a-f]*)$/;

/**
 * Normalises a rule pattern as typed by a person (spec 2.4). Accepts a bare name, `=name` or `*.name`, where
 * name is a domain name:
 * - surrounding whitespace is trimmed, letters lower-cased, one trailing dot removed;
 * - Unicode names become IDNA A-labels through the WHATWG URL host parser (UTS 46 mapping: `ＡＢ.com` is
 *   `ab.com`, `bücher.example` is `xn--bcher-kva.example`);
 * - each label is 1 to 63 of `a-z 0-9 - _`, not starting or ending with `-` (`_` for service labels such as
 *   `_dmarc`); the name is at most 253 characters after IDNA;
 * - single-label names are allowed in every form (`local`, `=localhost`, `*.zip` for a whole top-level domain);
 * - `*` is allowed only as the leading `*.`: `*`, `*.`, `**.x`, `a.*.b` and `*x.com` are refused;
 * - IP addresses are refused: rules match query names, and a name whose last label is numeric is an IPv4
 *   address to every resolver and URL parser (no top-level domain is numeric), so a rule on it would never
 *   match what the user meant (a PTR query asks for `4.3.2.1.in-addr.arpa`, which is a valid pattern).
 */
export function normaliseRulePattern(input: string): RulePatternResult {
  const text = input.trim().toLowerCase();
  if (text === '') return { ok: false, message: `must not be empty; ${FORMS_HINT}` };
  if (text === '*') {
    return { ok: false, message: `must name a domain: "*" alone would match every name; ${FORMS_HINT}` };
  }
  const prefix = text.startsWith('=') ? '=' : text.startsWith('*.') ? '*.' : '';
  const rest = text.slice(prefix.length);
  if (rest.startsWith('=') || (prefix === '=' && rest.startsWith('*.'))) {
    return { ok: false, message: `must carry at most one prefix, "=" or "*."; ${FORMS_HINT}` };
  }
  if (prefix !== '' && rest === '') {
    return { ok: false, message: `must have a domain name after "${prefix}"; ${FORMS_HINT}` };
  }
  if (rest.includes('*')) {
    return {
      ok: false,
      message: `may use "*" only as a leading "*." (as in *.example.com), not inside a name; ${FORMS_HINT}`,
    };
  }
  const name = domainName(rest);
  return name.ok ? { ok: true, pattern: `${prefix}${name.name}` } : name;
}

/**
 * Normalises a domain name without a rule prefix (a rewrite's CNAME target, or the name part of a pattern):
 * the same rules as {@link normaliseRulePattern} after its prefix.
 */
export function normaliseDomainName(input: string): DomainNameResult {
  return domainName(input.trim().toLowerCase());
}

/** {@link normaliseDomainName} of text already trimmed and lower-cased (`= example.com` keeps its space). */
function domainName(text: string): DomainNameResult {
  if (text === '') return { ok: false, message: 'must be a domain name such as example.com' };
  const reinterpreted = REINTERPRETED.exec(text);
  if (reinterpreted !== null) {
    const shown = /\s/u.test(reinterpreted[0]) ? 'a space' : `"${reinterpreted[0]}"`;
    return {
      ok: false,
      message: `must be a domain name, not a URL, address or port: ${shown} is not allowed; labels use letters, digits, "-" and "_"`,
    };
  }
  for (const character of text) {
    if (character.charCodeAt(0) < 0x80 && !NAME_ASCII.test(character)) {
      return {
        ok: false,
        message: `must use only letters, digits, "-", "_" and dots in a domain name; "${character}" is not allowed`,
      };
    }
  }
  if (endsInNumber(text)) return { ok: false, message: IP_LITERAL_MESSAGE };
  // Only now, with every delimiter refused, can the URL host parser do IDNA without reading a port or a path.
  const url = `http://${text}/`;
  if (!URL.canParse(url)) {
    return {
      ok: false,
      message: 'must be a valid internationalised domain name (its IDNA conversion fails)',
    };
  }
  const host = new URL(url).hostname;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  const problem = labelProblem(name);
  if (problem !== null) return { ok: false, message: problem };
  if (endsInNumber(name)) return { ok: false, message: IP_LITERAL_MESSAGE };
  if (name.length > DOMAIN_NAME_MAX_LENGTH) {
    return {
      ok: false,
      message: `must be at most ${DOMAIN_NAME_MAX_LENGTH} characters long as a domain name (after IDNA conversion); this one has ${name.length}`,
    };
  }
  return { ok: true, name };
}

const IP_LITERAL_MESSAGE =
  'must be a domain name, not an IP address: the last label must not be a number (rules match query names)';

/** True when the last label (ignoring one trailing dot) is what URL parsers and resolvers take for IPv4. */
function endsInNumber(text: string): boolean {
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  return NUMERIC_LABEL.test(name.slice(name.lastIndexOf('.') + 1));
}

function labelProblem(name: string): string | null {
  for (const label of name.split('.')) {
    if (label === '') return 'must not have empty labels (a leading dot, or two dots in a row)';
    if (label.length > DOMAIN_LABEL_MAX_LENGTH) {
      return `must have labels of at most ${DOMAIN_LABEL_MAX_LENGTH} characters (after IDNA conversion); "${label.slice(0, 20)}…" has ${label.length}`;
    }
    if (!LABEL.test(label)) {
      return `must have labels of letters a-z, digits, "-" and "_" only; "${label}" is not allowed`;
    }
    if (label.startsWith('-') || label.endsWith('-')) {
      return `must not have a label starting or ending with "-"; "${label}" does`;
    }
  }
  return null;
}

/** The form and the name of a normalised pattern. */
export function rulePatternParts(pattern: string): { form: RulePatternForm; name: string } {
  if (pattern.startsWith('=')) return { form: 'exact', name: pattern.slice(1) };
  if (pattern.startsWith('*.')) return { form: 'subdomains', name: pattern.slice(2) };
  return { form: 'subtree', name: pattern };
}

/**
 * Whether a normalised pattern covers a query name. The query name is compared as DNS compares names: ASCII
 * case-insensitively (only A-Z fold, so the Kelvin sign is not `k`) and with or without its trailing dot. It
 * is expected in wire form (A-labels), as resolvers and logs carry it; a Unicode name never matches.
 * Matching respects label boundaries: `example.com` does not cover `notexample.com`.
 */
export function ruleMatches(pattern: string, qname: string): boolean {
  const { form, name } = rulePatternParts(asciiLowerCase(pattern));
  if (name === '') return false;
  const query = asciiLowerCase(qname.endsWith('.') ? qname.slice(0, -1) : qname);
  const under = query.length > name.length + 1 && query.endsWith(`.${name}`);
  switch (form) {
    case 'exact':
      return query === name;
    case 'subdomains':
      return under;
    case 'subtree':
      return query === name || under;
  }
}

function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
