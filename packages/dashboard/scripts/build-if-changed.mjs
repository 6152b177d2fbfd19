// Builds the dashboard into dist/ unless the sources it is made from are unchanged since the last build
// (`--force` builds anyway). Run by the root `prepare` (after npm ci / npm install) and by `npm start`, so a
// fresh clone serves the dashboard with nothing else to run, and an unchanged one starts without waiting.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = new URL('..', import.meta.url).pathname;
const root = join(here, '..', '..');
const dist = join(here, 'dist');
const stampFile = join(dist, '.build-stamp');

/** The dashboard's component tests and their helpers: in src/, beside the components, but never bundled. */
const isComponentTest = (path) =>
  /\.test\.tsx?$/.test(path) || path.startsWith(`${join(here, 'src', 'testing')}/`);

/** Every file the bundle is made from: the dashboard's, the SDK's and the domain's sources, and the lockfile. */
function inputs() {
  const files = [];
  const walk = (folder) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'build') continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const folder of ['src', 'public']) walk(join(here, folder));
  for (const file of ['index.html', 'vite.config.ts', 'package.json']) files.push(join(here, file));
  walk(join(root, 'packages', 'sdk', 'src'));
  walk(join(root, 'packages', 'domain', 'src'));
  files.push(join(root, 'package-lock.json'));
  return files.filter((file) => existsSync(file) && !isComponentTest(file)).sort();
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of inputs()) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Writes `.gz` and `.br` beside every compressible file, so the server sends them without compressing. */
function precompress(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) precompress(path);
    else if (/\.(js|css|html|svg|json|txt|map)$/.test(entry.name) && statSync(path).size > 512) {
      const body = readFileSync(path);
      writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
      writeFileSync(
        `${path}.br`,
        brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
}

/**
 * Holds a lock folder while building, so that two builds started together (parallel test files, npm start
 * beside a test run) never write dist/ at once; a lock older than five minutes was left by a killed build.
 */
function withLock(run) {
  const lock = join(here, '.build-lock');
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 300_000)
        rmSync(lock, { recursive: true, force: true });
      Atomics.wait(sleeper, 0, 0, 200);
    }
  }
  return Promise.resolve()
    .then(run)
    .finally(() => rmSync(lock, { recursive: true, force: true }));
}

const force = process.argv.includes('--force');
await withLock(async () => {
  const current = fingerprint();
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === current) {
    process.stdout.write('dashboard: up to date\n');
  } else {
    let vite;
    try {
      vite = await import('vite');
    } catch {
      // An install without dev dependencies (npm ci --omit=dev) has no Vite: it serves what was built before.
      process.stdout.write(
        'dashboard: Vite is not installed (an install without dev dependencies); not built\n',
      );
      return;
    }
    process.stdout.write('dashboard: building…\n');
    // Always the production build: started from a test runner (vitest sets NODE_ENV=test) Vite would keep
    // that NODE_ENV and bundle React's development build, several times larger, and the budgets and
    // Lighthouse would measure it.
    process.env.NODE_ENV = 'production';
    const { build } = vite;
    await build({
      root: here,
      configFile: join(here, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
    });
    precompress(dist);
    writeFileSync(stampFile, current);
    process.stdout.write('dashboard: built into packages/dashboard/dist\n');
  }
});
