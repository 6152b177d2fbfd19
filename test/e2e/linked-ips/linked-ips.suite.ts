import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { linkedIpAccess } from './linked-ips.access.js';
import { runLinkedIpsCapsSuite } from './linked-ips.caps.suite.js';
import { linkedIpDdns } from './linked-ips.ddns.js';
import { useLinkedIpsFixture } from './linked-ips.fixture.js';
import { linkedIpLinks } from './linked-ips.links.js';
import { runLinkedIpsProofSuite } from './linked-ips.proof.suite.js';
import { linkedIpUnlinkAndList } from './linked-ips.unlink-and-list.js';

/**
 * Linked IPv4 addresses and DDNS through HTTP (spec 1.5, 4.4, 4.13, 7; ROUTES.md): versioned profile writes
 * published to the edge, one profile per address anywhere, DDNS tokens that rotate, tenant isolation and
 * suspension. The API trusts the loopback proxy, so X-Forwarded-For plays callers from other addresses: a link
 * is sent from the address it links (proven, active) unless a test plays someone claiming another's address.
 */
export function runLinkedIpsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `linked IPs and DDNS through HTTP on ${storage} (spec 4.4, 4.13)`,
    () => {
      const fx = useLinkedIpsFixture(storage);
      linkedIpLinks(fx);
      linkedIpDdns(fx);
      linkedIpUnlinkAndList(fx);
      linkedIpAccess(fx);
    },
  );

  runLinkedIpsProofSuite(storage, options);
  runLinkedIpsCapsSuite(storage, options);
}
