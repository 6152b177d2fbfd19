import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freshCliBuild } from './cli-build.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The compiled CLI's entry (packages/cli/bin/svc.js loads dist/bin.js), as `npx svc` runs it. */
const BIN = `${ROOT}packages/cli/bin/svc.js`;

let built: Promise<void> | undefined;
let ready = false;

/**
 * Builds the CLI from the current sources, unless its build is already newer than them; once per test
 * process. A test file that spawns `svc` awaits it in a `beforeAll`: the compiled CLI starts in a fraction
 * of the time that compiling its sources on each start (tsx) takes, and after an edit it runs what was edited.
 */
export function svcBuilt(): Promise<void> {
  built ??= freshCliBuild().then(() => {
    ready = true;
  });
  return built;
}

/** Runs the `svc` binary compiled from the current sources; `svcBuilt()` must have resolved. */
export function spawnSvc(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  if (!ready) throw new Error('spawnSvc runs the compiled CLI: await svcBuilt() first (in a beforeAll)');
  return spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, SVC_LOG_LEVEL: 'warn', SVC_LIST_REFRESH_HOURS: '0', ...env },
  });
}

/** The `svc` command npm linked at install (node_modules/.bin/svc), run as `npx svc` runs it. */
export const INSTALLED_SVC = `${ROOT}node_modules/.bin/svc`;

/** Runs the installed, compiled `svc` in `cwd` (the repository root unless given). */
export function spawnInstalledSvc(
  args: string[],
  env: Record<string, string> = {},
  cwd: string = ROOT,
): ChildProcessWithoutNullStreams {
  return spawn(INSTALLED_SVC, args, { cwd, env: { ...process.env, SVC_LOG_LEVEL: 'warn', ...env } });
}

/** The outcome of a finished `svc` process. */
export interface SvcResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a spawned `svc` to completion and returns its exit code and output. */
export function completionOf(child: ChildProcessWithoutNullStreams): Promise<SvcResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `svc` (compiled from the current sources) to completion and returns its exit code and output. */
export async function runSvc(args: string[], env: Record<string, string> = {}): Promise<SvcResult> {
  await svcBuilt();
  return completionOf(spawnSvc(args, env));
}

/** Resolves the URL of the `listening on` line, or rejects when the process exits first. */
export function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`svc exited with ${code} before listening: ${stderr}`)));
  });
}

/** Resolves the exit code once the process exits. */
export function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}
