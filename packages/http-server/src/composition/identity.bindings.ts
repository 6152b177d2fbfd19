import { Argon2PasswordHasher, MemoryAttemptLimiter, MemoryLoginThrottle } from '@svc/adapters';
import {
  ApiTokenService,
  AttemptLimiter,
  Clock,
  type CursorSealer,
  type IdentityDependencies,
  IdentityStore,
  InviteService,
  KeyedHash,
  LoginThrottle,
  PasswordHasher,
  PasswordService,
  Random,
  SessionService,
  SignupService,
  UnitOfWork,
} from '@svc/domain';
import type { Container } from 'inversify';
import { IdentityAuthenticator } from '../http/identity-authenticator.js';
import { Authenticator } from '../http/principal.js';
import type { Settings } from '../settings/settings.js';
import {
  ApiTokenServiceToken,
  CursorSealerToken,
  InviteServiceToken,
  PasswordServiceToken,
  SessionServiceToken,
  SignupServiceToken,
} from './tokens.js';

const IdentityDependenciesToken = Symbol.for('svc.IdentityDependencies');

/**
 * Binds the identity use cases and the authenticator. The stores (IdentityStore, UnitOfWork) are bound by the
 * storage family; everything here is the same for memory and engines.
 */
export function bindIdentity(container: Container, settings: Settings): void {
  container.bind<PasswordHasher>(PasswordHasher).toConstantValue(new Argon2PasswordHasher());
  container.bind<LoginThrottle>(LoginThrottle).toConstantValue(new MemoryLoginThrottle());
  container.bind<AttemptLimiter>(AttemptLimiter).toConstantValue(new MemoryAttemptLimiter());
  container.bind<IdentityDependencies>(IdentityDependenciesToken).toResolvedValue(
    (
      uow: UnitOfWork,
      store: IdentityStore,
      hasher: PasswordHasher,
      keyedHash: KeyedHash,
      random: Random,
      clock: Clock,
      limiter: AttemptLimiter,
      throttle: LoginThrottle,
    ) => ({
      uow,
      store,
      hasher,
      keyedHash,
      random,
      clock,
      limiter,
      throttle,
      settings: {
        env: settings.env,
        signupMode: settings.signupMode,
        signupAllowlist: settings.signupAllowlist,
        dashboardUrl: settings.dashboardUrl.replace(/\/+$/, ''),
      },
    }),
    [UnitOfWork, IdentityStore, PasswordHasher, KeyedHash, Random, Clock, AttemptLimiter, LoginThrottle],
  );
  const service = <T>(token: symbol, make: (deps: IdentityDependencies) => T) =>
    container.bind<T>(token).toResolvedValue(make, [IdentityDependenciesToken]);
  service(SignupServiceToken, (deps) => new SignupService(deps));
  service(SessionServiceToken, (deps) => new SessionService(deps));
  service(PasswordServiceToken, (deps) => new PasswordService(deps));
  service(InviteServiceToken, (deps) => new InviteService(deps));
  container
    .bind<ApiTokenService>(ApiTokenServiceToken)
    .toResolvedValue(
      (deps: IdentityDependencies, cursors: CursorSealer) => new ApiTokenService(deps, cursors),
      [IdentityDependenciesToken, CursorSealerToken],
    );
  container
    .bind<Authenticator>(Authenticator)
    .toResolvedValue(
      (sessions: SessionService, tokens: ApiTokenService) =>
        new IdentityAuthenticator(sessions, tokens, settings.secureCookies),
      [SessionServiceToken, ApiTokenServiceToken],
    );
}
