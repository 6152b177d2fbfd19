import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freshSdkBuild } from './sdk-package.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
/** The packages the compiled CLI loads through their package.json exports, besides the SDK. */
const PACKAGES = ['domain', 'adapters', 'composition', 'edge-simulator', 'http-server', 'cli'];
/** Held while one test process rebuilds, so that no other runs the CLI from a half-written dist. */
const LOCK = join(tmpdir(), `svc-cli-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);

function newestFile(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestFile(join(path, name))));
}

function fresh(): boolean {
  return PACKAGES.every((name) => {
    const folder = join(ROOT, 'packages', name);
    const built = join(folder, 'dist', 'index.js');
    const inputs = ['src', 'package.json', 'tsup.config.ts'].map((entry) => join(folder, entry));
    return existsSync(built) && statSync(built).mtimeMs > Math.max(...inputs.map(newestFile));
  });
}

/**
 * The compiled CLI as `npm ci` builds it (scripts/prepare.mjs), rebuilt only when a source is newer than its
 * build: after an install the tests run what was installed, after an edit what was edited.
 */
export async function freshCliBuild(): Promise<void> {
  await freshSdkBuild();
  for (;;) {
    if (fresh()) return;
    try {
      mkdirSync(LOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await sleep(500);
      continue;
    }
    try {
      if (!fresh())
        await run(process.execPath, ['scripts/prepare.mjs', ...PACKAGES], { cwd: ROOT, timeout: 240_000 });
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
