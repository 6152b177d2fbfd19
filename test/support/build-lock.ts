import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Runs `build` unless `fresh()` says its output is current, holding a lock (a directory, created atomically)
 * while it builds: test files run two at a time, and one must not read a half-written dist while another
 * rebuilds it. The lock is per checkout, so two worktrees build their own.
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
      await sleep(500);
      continue;
    }
    try {
      if (!fresh()) await build();
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
