import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EdgeSimulator } from '@svc/edge-simulator';
import { EdgeSimulatorToken, parseSettings, startServer } from '@svc/http-server';
import { createClient, type Scope } from '@svc/sdk';
import pino from 'pino';

/** The whole API in this process on embedded engines, with an API token, and traffic on demand. */
export interface EmbeddedSvc {
  url: string;
  /** An API token of a fresh account with the scopes the examples use. */
  token: string;
  /** Plays the edge for a profile, as `svc simulate` does: `queries` log rows over the last day. */
  simulate(profileId: string, queries: number, seed?: number): Promise<void>;
  close(): Promise<void>;
}

const PASSWORD = 'correct horse battery staple';
const SCOPES: Scope[] = ['profiles:read', 'profiles:write', 'logs:read', 'analytics:read'];

/** The verification token of the mail the embedded mailer wrote to `<dataDir>/mail` for `email`. */
function verificationToken(dataDir: string, email: string): string | undefined {
  const folder = join(dataDir, 'mail');
  if (!existsSync(folder)) return undefined;
  for (const name of readdirSync(folder)) {
    // Quoted-printable: undo soft line breaks and escapes, enough to read the link.
    const text = readFileSync(join(folder, name), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (!text.includes(`To: ${email}`)) continue;
    const token = /verify-email\?token=([^\s"<]+)/.exec(text)?.[1];
    if (token !== undefined) return decodeURIComponent(token);
  }
  return undefined;
}

/** Signs an account up, verifies it, signs in and creates an API token, all through the SDK. */
async function apiToken(url: string, dataDir: string, accountName: string): Promise<string> {
  const email = `${accountName}-${Date.now()}@example.test`;
  const session = createClient({ baseUrl: url });
  await session.auth.signup({ email, password: PASSWORD });
  let token = verificationToken(dataDir, email);
  for (let tries = 0; token === undefined && tries < 200; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    token = verificationToken(dataDir, email);
  }
  if (token === undefined) throw new Error('no verification mail arrived');
  await session.auth.verify(token);
  await session.auth.login({ email, password: PASSWORD });
  return (await session.tokens.create({ name: 'example', scopes: SCOPES })).secret;
}

/**
 * Starts svc on 127.0.0.1 with PGlite and the embedded columnar store in a temporary data dir, with an account
 * whose address begins with `accountName` (the examples name theirs).
 */
export async function startEmbeddedSvc(accountName = 'example'): Promise<EmbeddedSvc> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-example-'));
  const server = await startServer({
    settings: parseSettings({
      SVC_ENV: 'development',
      PORT: '0',
      SVC_SECRET: 'example-secret-that-is-long-enough-for-hkdf-0123456789',
      SVC_DATA_DIR: dataDir,
    }),
    logger: pino({ level: 'warn' }),
    storage: 'engines',
  });
  return {
    url: server.url,
    token: await apiToken(server.url, dataDir, accountName),
    simulate: async (profileId, queries, seed = 1) => {
      const simulator = await server.container.getAsync<EdgeSimulator | null>(EdgeSimulatorToken);
      if (simulator === null) throw new Error('svc simulate needs a columnar store');
      await simulator.run({ profileId, queries, days: 1, devices: 2, seed });
    },
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
