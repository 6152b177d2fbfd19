import { readFileSync } from 'node:fs';
import { FileCredentialStore } from '@svc/node-agent-kit';
import { ReferenceNode } from './reference-node.js';

/**
 * `npm start -w examples/reference-node`: runs the reference node from environment variables (see the README).
 * Stops cleanly on SIGINT and SIGTERM.
 */
function setting(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') {
    process.stderr.write(`${name} is required (see examples/reference-node/README.md)\n`);
    process.exit(2);
  }
  return value;
}

function port(name: string, fallback: string): number {
  const value = Number(setting(name, fallback));
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    process.stderr.write(`${name} must be a port number from 0 to 65535\n`);
    process.exit(2);
  }
  return value;
}

/** DoT is on when both a certificate and its key are given (PEM files). */
function dotSettings(): { dot?: { port: number; certificate: Buffer; key: Buffer } } {
  const certificate = process.env.NODE_TLS_CERT;
  const key = process.env.NODE_TLS_KEY;
  if ((certificate ?? '') === '' && (key ?? '') === '') return {};
  return {
    dot: {
      port: port('NODE_DOT_PORT', '8853'),
      certificate: readFileSync(setting('NODE_TLS_CERT')),
      key: readFileSync(setting('NODE_TLS_KEY')),
    },
  };
}

const dataDir = setting('NODE_DATA_DIR', './.reference-node');
const [upstreamHost, upstreamPort] = setting('NODE_UPSTREAM', '127.0.0.1:53').split(/:(?=\d+$)/);
const code = process.env.NODE_ENROLMENT_CODE;
const node = await ReferenceNode.start({
  apiUrl: setting('SVC_API_URL'),
  credentials: new FileCredentialStore(`${dataDir}/credentials.json`),
  filterDirectory: `${dataDir}/filter`,
  ...(code === undefined || code === '' ? {} : { enrolmentCode: code }),
  upstream: { host: upstreamHost ?? '127.0.0.1', port: Number(upstreamPort ?? 53) },
  dnsHost: setting('NODE_DNS_HOST', '127.0.0.1'),
  // NODE_UDP_PORT is the setting's name from before the node answered over TCP too.
  dnsPort: port('NODE_DNS_PORT', process.env.NODE_UDP_PORT ?? '5353'),
  dohPort: port('NODE_DOH_PORT', '8053'),
  ...dotSettings(),
  logFile: `${dataDir}/queries.jsonl`,
  onRevoked: () => process.exit(1),
  log: (message) => process.stdout.write(`${new Date().toISOString()} ${message}\n`),
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void node.stop().then(() => process.exit(0));
  });
}
