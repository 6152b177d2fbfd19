/**
 * CIDR prefixes of abusive sources (spec 2.9), normalised to their masked prefix: `203.0.113.77/24` is stored
 * as `203.0.113.0/24`, `2001:DB8::1/32` as `2001:db8::/32`, so two spellings of one prefix are one block. A
 * bare address is its own host prefix (/32 or /128).
 */

/** Outcome of {@link normaliseCidr}. */
export type CidrResult = { ok: true; cidr: string } | { ok: false; message: string };

const IPV4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => IPV4_OCTET.test(part))) return null;
  return parts.map(Number);
}

/** The 8 hextets of an IPv6 address (an embedded IPv4 tail allowed), or null. */
function parseIpv6(text: string): number[] | null {
  const lower = text.toLowerCase();
  const halves = lower.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (v4 === null) return null;
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else {
        if (!HEXTET.test(part)) return null;
        out.push(Number.parseInt(part, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === null || tail === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function maskBits(values: number[], width: number, bits: number): number[] {
  return values.map((value, index) => {
    const start = index * width;
    if (bits >= start + width) return value;
    if (bits <= start) return 0;
    const keep = bits - start;
    return value & (((1 << keep) - 1) << (width - keep));
  });
}

/** RFC 5952 text of 8 hextets: lower case, the longest run of two or more zero groups as `::`. */
function formatIpv6(hextets: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    if (hextets[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < 8 && hextets[end] === 0) end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const text = (part: number[]) => part.map((value) => value.toString(16)).join(':');
  if (bestStart === -1) return text(hextets);
  return `${text(hextets.slice(0, bestStart))}::${text(hextets.slice(bestStart + bestLength))}`;
}

const CIDR_HINT = 'must be an IPv4 or IPv6 prefix such as 203.0.113.0/24 or 2001:db8::/32';

/** Parses and masks a CIDR prefix; see the module comment. */
export function normaliseCidr(input: string): CidrResult {
  const text = input.trim();
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const lengthText = slash === -1 ? undefined : text.slice(slash + 1);
  if (lengthText !== undefined && !/^\d{1,3}$/.test(lengthText)) return { ok: false, message: CIDR_HINT };
  const v4 = parseIpv4(address);
  if (v4 !== null) {
    const bits = lengthText === undefined ? 32 : Number(lengthText);
    if (bits > 32) return { ok: false, message: 'an IPv4 prefix length is at most 32' };
    return { ok: true, cidr: `${maskBits(v4, 8, bits).join('.')}/${bits}` };
  }
  const v6 = parseIpv6(address);
  if (v6 !== null) {
    const bits = lengthText === undefined ? 128 : Number(lengthText);
    if (bits > 128) return { ok: false, message: 'an IPv6 prefix length is at most 128' };
    return { ok: true, cidr: `${formatIpv6(maskBits(v6, 16, bits))}/${bits}` };
  }
  return { ok: false, message: CIDR_HINT };
}
