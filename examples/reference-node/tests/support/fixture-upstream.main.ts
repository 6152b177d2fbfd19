import { startTestUpstream } from './test-upstream.js';

/**
 * `npm run fixture-upstream -w examples/reference-node`: the tests' authoritative fixture as a process, so the
 * node can be tried on loopback without an upstream on the internet (see the README). FIXTURE_PORT (default
 * 5300) is its UDP and TCP port.
 */
const upstream = await startTestUpstream(Number(process.env.FIXTURE_PORT ?? 5300));
// Outside the tests nothing releases `held.…` names: answer them at once.
upstream.release();
process.stdout.write(
  `fixture upstream on 127.0.0.1:${upstream.port} (UDP and TCP): every name has A 203.0.113.7 and AAAA 2001:db8::7; missing.* is NXDOMAIN, many.* has 100 A records, ttl-N.* has TTL N\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void upstream.close().then(() => process.exit(0));
  });
}
