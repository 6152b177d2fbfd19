import { describe } from 'vitest';
import { dnsOverTlsHttpsAndTools } from './dns-conformance.encrypted-and-tools.js';
import { useReferenceResolver } from './dns-conformance.fixture.js';
import { dnsOverPlainTransports } from './dns-conformance.plain.js';

/**
 * examples/reference-node answers like a real resolver (issue 29, RFC 7766, 7858, 8484, 8914, 2308, 6891):
 * clients nobody here wrote (Node's c-ares resolver, kdig, dig) ask its DNS side on loopback over UDP, TCP,
 * TLS and HTTPS, with an authoritative fixture on loopback as the upstream.
 */
describe('reference node DNS conformance', () => {
  const fx = useReferenceResolver();
  dnsOverPlainTransports(fx);
  dnsOverTlsHttpsAndTools(fx);
});
