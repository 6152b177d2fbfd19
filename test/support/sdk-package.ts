import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { buildUnlessFresh } from './build-lock.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const SDK = join(ROOT, 'packages/sdk');
/** What the SDK's build writes; the published entry points of package.json. */
const BUILT = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'browser/index.js'];

function newestFile(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestFile(join(path, name))));
}

/**
 * Builds the SDK unless its dist is newer than everything it is made from: its sources and build settings,
 * and the domain's sources, whose schema types its declarations take in.
 */
export async function freshSdkBuild(): Promise<void> {
  const inputs = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.build.json'].map((name) =>
    join(SDK, name),
  );
  const newestInput = Math.max(...[...inputs, join(ROOT, 'packages/domain/src')].map(newestFile));
  const outputs = BUILT.map((name) => join(SDK, 'dist', name));
  const fresh = () => outputs.every((path) => existsSync(path) && statSync(path).mtimeMs > newestInput);
  await buildUnlessFresh('sdk', fresh, () =>
    run('npm', ['run', 'build', '-w', '@svc/sdk'], { cwd: ROOT, timeout: 240_000 }),
  );
}

/** The `package.json` fields of a package that say what it needs installed. */
export interface PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function manifestOf(folder: string): PackageManifest {
  return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * Packs packages/sdk with `npm pack` and unpacks the tarball into `<project>/node_modules/@svc/sdk`, as a
 * registry install would put it. Returns the packed manifest.
 */
export async function installPackedSdk(project: string): Promise<PackageManifest> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: SDK });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (packed === undefined) throw new Error(`npm pack printed no tarball: ${stdout}`);
  const target = join(project, 'node_modules/@svc/sdk');
  mkdirSync(target, { recursive: true });
  await run('tar', ['-xzf', join(project, packed.filename), '-C', target, '--strip-components=1']);
  return manifestOf(target);
}

/**
 * Links `names` and, transitively, their own dependencies from the workspace's node_modules into
 * `<project>/node_modules`: the packages a registry install would add, and nothing else.
 */
export function linkFromWorkspace(project: string, names: string[]): void {
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const link = join(project, 'node_modules', name);
    if (existsSync(link)) continue;
    const source = join(ROOT, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(source, link, 'dir');
    pending.push(...Object.keys(manifestOf(source).dependencies ?? {}));
  }
}

/** Every file under `folder`, as paths relative to it. */
export function filesUnder(folder: string, prefix = ''): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(folder, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

/** Compiles (or only checks, with `noEmit`) `files` with the workspace's tsc; rejects with tsc's messages. */
export async function typeCheck(
  project: string,
  config: string,
  files: string[],
  compilerOptions: object,
): Promise<void> {
  writeFileSync(join(project, config), JSON.stringify({ compilerOptions, files }));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '-p', config], { cwd: project, timeout: 120_000 }).catch(
    (error: { stdout?: string; message: string }) => {
      throw new Error(`tsc -p ${config} failed:\n${error.stdout ?? error.message}`, { cause: error });
    },
  );
}

/** Runs a compiled consumer with Node and parses the JSON line it prints. */
export async function runConsumer(file: string, args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [file, ...args], { cwd: dirname(file), timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}
