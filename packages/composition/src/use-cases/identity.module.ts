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
  AttemptLimiter,
  Clock,
  type IdentityDependencies,
  IdentityStore,
  InvitationService,
  InviteService,
  KeyedHash,
  LoginThrottle,
  MemberService,
  OrganisationMembershipService,
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
import { ContainerModule } from 'inversify';
import type { Settings } from '../settings/settings.js';
import {
  IdentityDependenciesToken,
  InvitationServiceToken,
  InviteServiceToken,
  MemberServiceToken,
  OrganisationMembershipServiceToken,
  PasskeyServiceToken,
  PasswordServiceToken,
  SecondFactorServiceToken,
  SessionServiceToken,
  SignupServiceToken,
} from './use-case.tokens.js';

/**
 * Binds the identity use cases; the stores (IdentityStore, UnitOfWork) are bound by the adapter family, and the
 * API token service is the host's (the HTTP server's token cache, or the plain service in a process without
 * requests). Everything here is the same for memory and engines.
 */
export function identityModule(
  settings: Pick<Settings, 'env' | 'keys' | 'storage' | 'accounts' | 'dashboard'>,
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<PasswordHasher>(PasswordHasher).toConstantValue(new Argon2PasswordHasher());
    bind<SecretBox>(SecretBox).toResolvedValue(
      async () =>
        new AesGcmSecretBox(
          settings.keys.secret ?? (await loadOrCreateDevelopmentSecret(settings.storage.dataDir)),
        ),
    );
    bind<LoginThrottle>(LoginThrottle).toResolvedValue(
      (clock: Clock) => new MemoryLoginThrottle(() => clock.now().getTime()),
      [Clock],
    );
    bind<AttemptLimiter>(AttemptLimiter).toConstantValue(new MemoryAttemptLimiter());
    bind<IdentityDependencies>(IdentityDependenciesToken).toResolvedValue(
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
          signupMode: settings.accounts.signupMode,
          signupAllowlist: settings.accounts.signupAllowlist,
          dashboardUrl: settings.dashboard.url.replace(/\/+$/, ''),
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
      bind<T>(token).toResolvedValue(make, [IdentityDependenciesToken]);
    service(SignupServiceToken, (deps) => new SignupService(deps));
    service(SessionServiceToken, (deps) => new SessionService(deps));
    service(PasswordServiceToken, (deps) => new PasswordService(deps));
    service(InviteServiceToken, (deps) => new InviteService(deps));
    service(MemberServiceToken, (deps) => new MemberService(deps));
    service(InvitationServiceToken, (deps) => new InvitationService(deps));
    service(OrganisationMembershipServiceToken, (deps) => new OrganisationMembershipService(deps));
    bind<SecondFactorService>(SecondFactorServiceToken).toResolvedValue(
      (deps: IdentityDependencies, sessions: SessionService) => new SecondFactorService(deps, sessions),
      [IdentityDependenciesToken, SessionServiceToken],
    );
    bind<WebAuthnVerifier>(WebAuthnVerifier).toConstantValue(
      new SimpleWebAuthnVerifier({
        rpName: 'svc',
        rpId: settings.dashboard.webauthnRpId,
        origins: settings.dashboard.origins,
      }),
    );
    bind<PasskeyService>(PasskeyServiceToken).toResolvedValue(
      (deps: IdentityDependencies, sessions: SessionService, webauthn: WebAuthnVerifier) =>
        new PasskeyService(deps, sessions, webauthn),
      [IdentityDependenciesToken, SessionServiceToken, WebAuthnVerifier],
    );
  });
}
