import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** One load per data dir in this process: callers resolving it at once must all get the same secret. */
const loading = new Map<string, Promise<string>>();

async function readSecret(path: string): Promise<string | undefined> {
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return existing !== undefined && existing.trim().length >= 32 ? existing.trim() : undefined;
}

async function loadOrCreate(dataDir: string): Promise<string> {
  const path = join(dataDir, 'secret');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const existing = await readSecret(path);
  if (existing !== undefined) return existing;
  const secret = randomBytes(48).toString('base64url');
  try {
    // Exclusive create: of two processes creating it at once, one writes and the other reads what it wrote.
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await readSecret(path);
    if (written === undefined) throw new Error(`${path} exists but holds no usable secret`, { cause: error });
    return written;
  }
}

/**
 * The development secret: generated once and kept in `<dataDir>/secret` (owner-only), so cursors, token hashes
 * and sealed TOTP keys stay valid across restarts. Production must set SVC_SECRET instead.
 */
export function loadOrCreateDevelopmentSecret(dataDir: string): Promise<string> {
  const key = resolve(dataDir);
  let pending = loading.get(key);
  if (pending === undefined) {
    pending = loadOrCreate(dataDir);
    loading.set(key, pending);
    // A failed load may be retried; a successful one is kept for the life of the process.
    pending.catch(() => loading.delete(key));
  }
  return pending;
}
