import type { PasswordHasher } from '@svc/domain';
import argon2 from 'argon2';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first configuration (19 MiB, two passes, one lane),
 * which keeps a hash near 50–100 ms on one core. Verification reads the parameters from the stored hash, so
 * raising them later only affects new hashes.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Password hashing with argon2id. */
export class Argon2PasswordHasher implements PasswordHasher {
  constructor(private readonly options: { memoryCost: number; timeCost: number } = ARGON2_OPTIONS) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { ...ARGON2_OPTIONS, ...this.options });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch (error) {
      // A stored value that is not an argon2 hash can never match; anything else is a real failure.
      if (error instanceof TypeError) return false;
      throw error;
    }
  }
}
