/** An address prefix as integers: `bits` leading bits of `network` in a family of `width` bits. */
export interface IpPrefix {
  width: 32 | 128;
  network: bigint;
  bits: number;
}

/** An IPv4 or IPv6 address as an integer of its family's width; null when it is not an address. */
export function parseIp(text: string): { width: 32 | 128; value: bigint } | null {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === null ? null : { width: 128, value };
  }
  const value = parseIpv4(text);
  return value === null ? null : { width: 32, value };
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  let address = text;
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (v4 === null) return null;
    address = `${address.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : (halves[0] ?? '').split(':');
  const rest = halves.length === 2 ? (halves[1] === '' ? [] : (halves[1] ?? '').split(':')) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
}

/** Parses `address/bits`; null for anything else. */
export function parsePrefixOrNull(cidr: string): IpPrefix | null {
  const [address, bitsText, extra] = cidr.split('/');
  const parsed = parseIp(address ?? '');
  const bits = Number(bitsText);
  if (extra !== undefined || parsed === null || !Number.isInteger(bits) || bits < 0 || bits > parsed.width) {
    return null;
  }
  return { width: parsed.width, network: parsed.value >> BigInt(parsed.width - bits), bits };
}

/** Parses `address/bits`; throws on anything else (prefix lists are data checked at load). */
export function parsePrefix(cidr: string): IpPrefix {
  const prefix = parsePrefixOrNull(cidr);
  if (prefix === null) throw new Error(`not an address prefix: ${cidr}`);
  return prefix;
}

/** True when `address` lies in `prefix`. */
export function inPrefix(address: { width: 32 | 128; value: bigint }, prefix: IpPrefix): boolean {
  return (
    address.width === prefix.width && address.value >> BigInt(prefix.width - prefix.bits) === prefix.network
  );
}

/** Ranges that are not public unicast (RFC 6890 and neighbours): their country is always empty. */
const NOT_PUBLIC = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
  '::/127',
  '::ffff:0:0/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
].map(parsePrefix);

/** True for a public unicast address; false for private, reserved, documentation or invalid ones. */
export function isPublicAddress(text: string): boolean {
  const address = parseIp(text);
  return address !== null && !NOT_PUBLIC.some((prefix) => inPrefix(address, prefix));
}
