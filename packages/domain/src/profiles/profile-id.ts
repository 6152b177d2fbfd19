import type { Random } from '../shared/random.ports.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Largest multiple of 36 below 256: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 252;

/** A profile id from the CSPRNG: 6 characters of [a-z0-9], never `000000` (spec 2.3). */
export function newProfileId(random: Random): string {
  for (;;) {
    let id = '';
    while (id.length < 6) {
      for (const byte of random.bytes(12)) {
        if (byte >= UNBIASED_LIMIT) continue;
        id += ALPHABET[byte % 36];
        if (id.length === 6) break;
      }
    }
    if (id !== '000000') return id;
  }
}
