import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildUnlessFresh } from './build-lock.js';

describe('the build lock of the test support', () => {
  it('takes over a lock whose holder died instead of waiting for it forever', async () => {
    const name = `lock-test-${process.pid}-${Date.now()}`;
    // A lock left as a worker killed mid-build leaves it: its pid names a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    let built = 0;
    const lock = join(tmpdir(), `svc-${name}-build-${lockSuffix()}.lock`);
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(dead));
    await buildUnlessFresh(
      name,
      () => built > 0,
      async () => {
        built += 1;
      },
    );
    expect(built).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a live holder and builds nothing once the holder made the output fresh', async () => {
    const name = `lock-test-live-${process.pid}-${Date.now()}`;
    const lock = join(tmpdir(), `svc-${name}-build-${lockSuffix()}.lock`);
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    let fresh = false;
    let built = 0;
    setTimeout(() => {
      fresh = true;
    }, 700);
    await buildUnlessFresh(
      name,
      () => fresh,
      async () => {
        built += 1;
      },
    );
    expect(built).toBe(0);
    expect(existsSync(lock)).toBe(true);
    rmSync(lock, { recursive: true, force: true });
  });
});

/** The checkout's part of a lock's name, as build-lock.ts derives it. */
function lockSuffix(): string {
  const root = new URL('../../', import.meta.url).pathname;
  return Buffer.from(root).toString('hex').slice(-24);
}
