import { createHash } from 'node:crypto';

/**
 * Floats in [0, 1) for generated test data, the same sequence for the same seed on every run (the n-th is
 * read from the SHA-256 of the seed and n), so that a failure replays. Not for anything secret.
 */
export function repeatableRandom(seed: number): { float(): number } {
  let drawn = 0;
  return {
    float: () => {
      drawn += 1;
      return createHash('sha256').update(`${seed}:${drawn}`).digest().readUInt32BE(0) / 2 ** 32;
    },
  };
}
