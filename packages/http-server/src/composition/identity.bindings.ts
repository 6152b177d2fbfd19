import {
  AesGcmSecretBox,
  Argon2PasswordHasher,
  loadOrCreateDevelopmentSecret,
  MemoryAttemptLimiter,
  MemoryLoginThrottle,
  OtplibTotpAuthenticator,
  SimpleWebAuthnVerifier,
} from '@svc/adapters';
import {
  ApiTokenInvalidation,
  type ApiTokenService,
  AttemptLimiter,
  Clock,
  type CursorSealer,
  type IdentityDependencies,
  IdentityStore,
  InviteService,
  KeyedHash,
  LoginThrottle,
  type NodeService,
  PasskeyService,
  PasswordHasher,
  PasswordService,
  Random,
  SecondFactorService,
  SecretBox,
  SessionService,
  SignupService,
  UnitOfWork,
  WebAuthnVerifier,
} from '@svc/domain';
import type { Container } from 'inversify';
import { CachingApiTokenService } from '../http/caching-api-token.service.js';
import { IdentityAuthenticator } from '../http/identity-authenticator.js';
import { Authenticator } from '../http/principal.js';
import type { Settings } from '../settings/settings.js';
import {
  ApiTokenServiceToken,
  CursorSealerToken,
  InviteServiceToken,
  NodeServiceToken,
  PasskeyServiceToken,
  PasswordServiceToken,
  SecondFactorServiceToken,
  SessionServiceToken,
  SignupServiceToken,
} from './tokens.js';

const IdentityDependenciesToken = Symbol.for('svc.IdentityDependencies');
/** The one token cache, bound as the token service and as the account invalidation the routes call. */
const CachingApiTokenServiceToken = Symbol.for('svc.CachingApiTokenService');

/**
 * Binds the identity use cases and the authenticator. The stores (IdentityStore, UnitOfWork) are bound by the
 * storage family; everything here is the same for memory and engines.
 */
export function bindIdentity(container: Container, settings: Settings): void {
  container.bind<PasswordHasher>(PasswordHasher).toConstantValue(new Argon2PasswordHasher());
  container
    .bind<SecretBox>(SecretBox)
    .toResolvedValue(
      async () =>
        new AesGcmSecretBox(settings.secret ?? (await loadOrCreateDevelopmentSecret(settings.dataDir))),
    );
  container
    .bind<LoginThrottle>(LoginThrottle)
    .toResolvedValue((clock: Clock) => new MemoryLoginThrottle(() => clock.now().getTime()), [Clock]);
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
      secretBox: SecretBox,
    ) => ({
      uow,
      store,
      hasher,
      keyedHash,
      random,
      clock,
      limiter,
      throttle,
      totp: new OtplibTotpAuthenticator(),
      secretBox,
      settings: {
        env: settings.env,
        signupMode: settings.signupMode,
        signupAllowlist: settings.signupAllowlist,
        dashboardUrl: settings.dashboardUrl.replace(/\/+$/, ''),
      },
    }),
    [
      UnitOfWork,
      IdentityStore,
      PasswordHasher,
      KeyedHash,
      Random,
      Clock,
      AttemptLimiter,
      LoginThrottle,
      SecretBox,
    ],
  );
  const service = <T>(token: symbol, make: (deps: IdentityDependencies) => T) =>
    container.bind<T>(token).toResolvedValue(make, [IdentityDependenciesToken]);
  service(SignupServiceToken, (deps) => new SignupService(deps));
  service(SessionServiceToken, (deps) => new SessionService(deps));
  service(PasswordServiceToken, (deps) => new PasswordService(deps));
  service(InviteServiceToken, (deps) => new InviteService(deps));
  container
    .bind<SecondFactorService>(SecondFactorServiceToken)
    .toResolvedValue(
      (deps: IdentityDependencies, sessions: SessionService) => new SecondFactorService(deps, sessions),
      [IdentityDependenciesToken, SessionServiceToken],
    );
  container.bind<WebAuthnVerifier>(WebAuthnVerifier).toConstantValue(
    new SimpleWebAuthnVerifier({
      rpName: 'svc',
      rpId: settings.webauthnRpId,
      origins: settings.dashboardOrigins,
    }),
  );
  container
    .bind<PasskeyService>(PasskeyServiceToken)
    .toResolvedValue(
      (deps: IdentityDependencies, sessions: SessionService, webauthn: WebAuthnVerifier) =>
        new PasskeyService(deps, sessions, webauthn),
      [IdentityDependenciesToken, SessionServiceToken, WebAuthnVerifier],
    );
  container.bind<CachingApiTokenService>(CachingApiTokenServiceToken).toResolvedValue(
    // Authenticated tokens are cached for 2 s at most; revoking through this server drops them at once.
    (deps: IdentityDependencies, cursors: CursorSealer) => new CachingApiTokenService(deps, cursors),
    [IdentityDependenciesToken, CursorSealerToken],
  );
  container.bind<ApiTokenService>(ApiTokenServiceToken).toService(CachingApiTokenServiceToken);
  container.bind<ApiTokenInvalidation>(ApiTokenInvalidation).toService(CachingApiTokenServiceToken);
  container
    .bind<Authenticator>(Authenticator)
    .toResolvedValue(
      (sessions: SessionService, tokens: ApiTokenService, nodes: NodeService) =>
        new IdentityAuthenticator(sessions, tokens, settings.secureCookies, nodes),
      [SessionServiceToken, ApiTokenServiceToken, NodeServiceToken],
    );
}
