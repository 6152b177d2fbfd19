import { type IpAddress, parseIpAddress, unmapIpv4 } from '../ecs/ecs.js';

interface Prefix {
  family: 4 | 6;
  bytes: Uint8Array;
  bits: number;
}

/** A masked prefix `address/bits` as the operator sources file carries it, or null when malformed. */
function parsePrefix(cidr: string): Prefix | null {
  const slash = cidr.indexOf('/');
  const address = parseIpAddress(slash === -1 ? cidr : cidr.slice(0, slash));
  if (address === null) return null;
  const width = address.family === 4 ? 32 : 128;
  const bits = slash === -1 ? width : Number(cidr.slice(slash + 1));
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return null;
  return { family: address.family, bytes: address.bytes, bits };
}

function covers(prefix: Prefix, address: IpAddress): boolean {
  if (prefix.family !== address.family) return false;
  const whole = prefix.bits >>> 3;
  for (let index = 0; index < whole; index += 1)
    if (prefix.bytes[index] !== address.bytes[index]) return false;
  const rest = prefix.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((prefix.bytes[whole] as number) & mask) === ((address.bytes[whole] as number) & mask);
}

/**
 * The abusive source prefixes of the operator sources file (spec 2.9), matched against a client's address;
 * an IPv4-mapped IPv6 client (`::ffff:192.0.2.1`, as dual-stack sockets report IPv4 clients) is matched as its
 * IPv4 address. Malformed prefixes are left out.
 */
export class SourcePrefixes {
  private readonly prefixes: { prefix: Prefix; index: number }[];

  constructor(cidrs: readonly string[]) {
    this.prefixes = cidrs.flatMap((cidr, index) => {
      const prefix = parsePrefix(cidr);
      return prefix === null ? [] : [{ prefix, index }];
    });
  }

  get empty(): boolean {
    return this.prefixes.length === 0;
  }

  /** The index of the first prefix covering `clientIp` that `accept` admits, or -1. */
  first(clientIp: string, accept?: (index: number) => boolean): number {
    if (this.prefixes.length === 0 || clientIp === '') return -1;
    const parsed = parseIpAddress(clientIp);
    if (parsed === null) return -1;
    const address = parsed.family === 6 ? unmapIpv4(parsed) : parsed;
    for (const { prefix, index } of this.prefixes) {
      if (covers(prefix, address) && (accept === undefined || accept(index))) return index;
    }
    return -1;
  }
}
