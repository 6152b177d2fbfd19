import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/**
 * The client addresses a node answers by default: loopback, the private ranges of RFC 1918 and RFC 4193,
 * shared address space (RFC 6598, behind carrier-grade NAT) and link-local. A resolver that answers anyone is
 * an open resolver, used to amplify attacks on others.
 */
export const PRIVATE_CLIENTS: readonly string[] = [
  '127.0.0.0/8',
  '::1/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '169.254.0.0/16',
  'fc00::/7',
  'fe80::/10',
];

const PRIVATE_RANGES: readonly Cidr[] = PRIVATE_CLIENTS.map((cidr) => ipaddr.parseCIDR(cidr));

/** A CIDR of the allow-list that does not parse. */
export class InvalidCidrError extends Error {
  constructor(
    readonly cidr: string,
    options?: ErrorOptions,
  ) {
    super(`"${cidr}" is not an address range (CIDR such as 192.168.0.0/16 or fd00::/8)`, options);
  }
}

/**
 * The node's client allow-list: the address ranges whose queries are answered, over every transport. An
 * IPv4 client seen as an IPv4-mapped IPv6 address (a dual-stack socket) is matched as the IPv4 address it is.
 */
export class ClientAccess {
  private constructor(
    private readonly ranges: readonly Cidr[],
    /** The ranges as configured, for messages. */
    readonly cidrs: readonly string[],
  ) {}

  /** The allow-list of these ranges; a bare address stands for itself alone. */
  static of(cidrs: readonly string[]): ClientAccess {
    const ranges = cidrs.map((cidr): Cidr => {
      try {
        if (cidr.includes('/')) return ipaddr.parseCIDR(cidr);
        const address = ipaddr.parse(cidr);
        return [address, address.kind() === 'ipv4' ? 32 : 128];
      } catch (error) {
        throw new InvalidCidrError(cidr, { cause: error });
      }
    });
    return new ClientAccess(ranges, cidrs);
  }

  /** Whether queries from `clientIp` are answered; an address that does not parse is not. */
  admits(clientIp: string): boolean {
    if (!ipaddr.isValid(clientIp)) return false;
    const address = ipaddr.process(clientIp);
    return this.ranges.some((range) => inRange(address, range));
  }

  /** Whether some range reaches beyond the private ranges, to addresses of the internet. */
  get admitsPublic(): boolean {
    return this.ranges.some(
      ([network, bits]) => !PRIVATE_RANGES.some((range) => bits >= range[1] && inRange(network, range)),
    );
  }
}

/**
 * Whether binding `host` exposes the node beyond the private networks: a public unicast address, or a wildcard
 * (`0.0.0.0`, `::`) that takes in every address of the machine, public ones included.
 */
export function exposesPublicly(host: string): boolean {
  if (!ipaddr.isValid(host)) return true;
  const address = ipaddr.process(host);
  if (address.range() === 'unspecified') return true;
  return !PRIVATE_RANGES.some((range) => inRange(address, range));
}

/** Whether `host` is a wildcard address (every interface of the machine). */
export function isWildcard(host: string): boolean {
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'unspecified';
}

function inRange(address: Address, [network, bits]: Cidr): boolean {
  if (address instanceof ipaddr.IPv4 && network instanceof ipaddr.IPv4) return address.match(network, bits);
  if (address instanceof ipaddr.IPv6 && network instanceof ipaddr.IPv6) return address.match(network, bits);
  return false;
}
