import type { PasswordHasher } from '@svc/domain';
import type argon2 from 'argon2';

/**
 * The native addon loads with the first hash or verification (sign-up, sign-in, password change), not with
 * the server: an idle server does not map it (docs/adr/0009-lazy-engines-and-modules.md).
 */
let addon: Promise<typeof argon2> | undefined;
const loadArgon2 = () => {
  addon ??= import('argon2').then((loaded) => loaded.default);
  return addon;
};

/** `argon2.argon2id`, the library's constant for the argon2id variant (its typings declare it as 2). */
const ARGON2ID: typeof argon2.argon2id = 2;

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first configuration (19 MiB, two passes, one lane);
 * the meta bench prints what a hash costs on the machine at hand. Verification reads the parameters from the stored hash, so
 * raising them later only affects new hashes.
 */
export const ARGON2_OPTIONS = {
  type: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Password hashing with argon2id. */
export class Argon2PasswordHasher implements PasswordHasher {
  constructor(private readonly options: { memoryCost: number; timeCost: number } = ARGON2_OPTIONS) {}

  async hash(password: string): Promise<string> {
    const argon2 = await loadArgon2();
    return argon2.hash(password, { ...ARGON2_OPTIONS, ...this.options });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    const argon2 = await loadArgon2();
    try {
      return await argon2.verify(hash, password);
    } catch (error) {
      // A stored value that is not an argon2 hash can never match; anything else is a real failure.
      if (error instanceof TypeError) return false;
      throw error;
    }
  }
}
