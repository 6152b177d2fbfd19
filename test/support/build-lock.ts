import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = new URL('../../', import.meta.url).pathname;
/** A lock without its holder's pid this long after it was made is a holder that died between the two steps. */
const PIDLESS_LOCK_MS = 60_000;

/** Whether process `pid` is alive (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the lock was left by a process that is gone: a worker ended by its run (a timed-out setup, a
 * cancelled run) never reaches its `finally`, and every later build would wait for it forever.
 */
function abandoned(lock: string): boolean {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && !alive(pid);
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > PIDLESS_LOCK_MS;
    } catch {
      return false;
    }
  }
}

/**
 * Runs `build` unless `fresh()` says its output is current, holding a lock (a directory, created atomically)
 * while it builds: test files run two at a time, and one must not read a half-written dist while another
 * rebuilds it. The lock is per checkout, so two worktrees build their own; a lock whose holder has died is
 * taken over.
 */
export async function buildUnlessFresh(
  name: string,
  fresh: () => boolean,
  build: () => Promise<unknown>,
): Promise<void> {
  const lock = join(tmpdir(), `svc-${name}-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
  for (;;) {
    if (fresh()) return;
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (!fresh()) await build();
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
