import type { IpRangeClassifier } from '@svc/domain';
import ipaddr from 'ipaddr.js';

/** RFC 5737's networks for examples, which the library counts among `reserved`. */
const DOCUMENTATION = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'].map((cidr) =>
  ipaddr.IPv4.parseCIDR(cidr),
);

/** Special-purpose IPv4 ranges as ipaddr.js keeps them from the IANA registry. */
export class IpaddrRangeClassifier implements IpRangeClassifier {
  rangeOf(ipv4: string): string {
    const address = ipaddr.IPv4.parse(ipv4);
    if (DOCUMENTATION.some((network) => address.match(network))) return 'documentation';
    return address.range();
  }
}
