import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The development secret: generated once and kept in `<dataDir>/secret` (owner-only), so cursors and token
 * hashes stay valid across restarts. Production must set SVC_SECRET instead.
 */
export async function loadOrCreateDevelopmentSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, 'secret');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined && existing.trim().length >= 32) return existing.trim();
  const secret = randomBytes(48).toString('base64url');
  await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'w' });
  return secret;
}
