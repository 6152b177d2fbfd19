import { randomBytes, randomUUID } from 'node:crypto';
import type { Random } from '@svc/domain';

/** Randomness from the operating system's CSPRNG. */
export class CryptoRandom implements Random {
  uuid(): string {
    return randomUUID();
  }

  bytes(length: number): Uint8Array {
    return new Uint8Array(randomBytes(length));
  }
}
