import type { Clock } from '../shared/clock.ports.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type {
  AttemptLimiter,
  IdentityStore,
  LoginThrottle,
  PasswordHasher,
  SecretBox,
  TotpAuthenticator,
} from './identity.ports.js';
import type { IdentitySettings } from './identity.settings.js';
import type { IdentityScope } from './identity-transaction.ports.js';

/**
 * What the identity use cases are built from; the composition root supplies the adapters. Each use case
 * names the transaction scope it uses (`IdentityDependencies<SignUpScope>`); the default offers all of them.
 */
export interface IdentityDependencies<Scope = IdentityScope> {
  uow: ScopedUnitOfWork<Scope>;
  /** Single-statement reads and writes outside a transaction (credential checks on the hot path). */
  store: IdentityStore;
  hasher: PasswordHasher;
  keyedHash: KeyedHash;
  random: Random;
  clock: Clock;
  limiter: AttemptLimiter;
  throttle: LoginThrottle;
  settings: IdentitySettings;
  totp: TotpAuthenticator;
  secretBox: SecretBox;
}
