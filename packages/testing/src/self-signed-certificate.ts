import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate made for one test run (never committed), with the file a client verifies it against. */
export interface SelfSignedCertificate {
  certificate: Buffer;
  key: Buffer;
  /** The certificate's PEM file: it is its own CA. */
  caFile: string;
}

/** Why no certificate can be made here, or undefined when `openssl` is there to make one. */
export const opensslMissing: string | undefined =
  spawnSync('openssl', ['version'], { stdio: 'ignore' }).error === undefined
    ? undefined
    : 'openssl is not installed';

/** A P-256 certificate for `localhost` and 127.0.0.1, valid for a day, made with the openssl command. */
export function selfSignedCertificate(): SelfSignedCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-tls-'));
  const caFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { certificate: readFileSync(caFile), key: readFileSync(keyFile), caFile };
}
