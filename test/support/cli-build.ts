import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildUnlessFresh } from './build-lock.js';
import { freshSdkBuild } from './sdk-package.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
/** The packages the compiled CLI loads through their package.json exports, besides the SDK. */
const PACKAGES = ['domain', 'adapters', 'composition', 'edge-simulator', 'http-server', 'cli'];

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
  await buildUnlessFresh('cli', fresh, () =>
    run(process.execPath, ['scripts/prepare.mjs', ...PACKAGES], { cwd: ROOT, timeout: 240_000 }),
  );
}
