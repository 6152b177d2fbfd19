import type { TransactionScope, UnitOfWork } from '../outbox/outbox.ports.js';
import type { Clock } from '../shared/clock.port.js';
import type { KeyedHash } from '../shared/keyed-hash.port.js';
import type { Random } from '../shared/random.port.js';
import type {
  AttemptLimiter,
  IdentityStore,
  LoginThrottle,
  PasswordHasher,
  SecretBox,
  TotpAuthenticator,
} from './identity.ports.js';
import type { IdentitySettings } from './identity.settings.js';

/** What the identity use cases are built from; the composition root supplies the adapters. */
export interface IdentityDependencies {
  uow: UnitOfWork;
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

/** The transaction scope type, re-exported for the services' signatures. */
export type IdentityTransaction = TransactionScope;
