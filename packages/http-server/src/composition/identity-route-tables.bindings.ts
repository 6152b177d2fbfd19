import {
  type AccountDeletionService,
  ApiTokenInvalidation,
  type ApiTokenService,
  type InvitationService,
  type MemberService,
  type OrganisationMembershipService,
  type PasskeyService,
  type PasswordService,
  type SecondFactorService,
  type SessionService,
  type SignupService,
} from '@svc/domain';
import type { ContainerModuleLoadOptions } from 'inversify';
import { accountDeletionRoutes } from '../routes/account-deletion.routes.js';
import { memberRoutes } from '../routes/member.routes.js';
import { organisationRoutes } from '../routes/organisation.routes.js';
import { passkeyRoutes } from '../routes/passkey.routes.js';
import { passwordRoutes } from '../routes/password.routes.js';
import { RouteTable } from '../routes/route-table.js';
import { secondFactorRoutes } from '../routes/second-factor.routes.js';
import { sessionRoutes } from '../routes/session.routes.js';
import { signupRoutes } from '../routes/signup.routes.js';
import { tokenRoutes } from '../routes/token.routes.js';
import {
  AccountDeletionServiceToken,
  ApiTokenServiceToken,
  InvitationServiceToken,
  MemberServiceToken,
  OrganisationMembershipServiceToken,
  PasskeyServiceToken,
  PasswordServiceToken,
  SecondFactorServiceToken,
  SessionServiceToken,
  SignupServiceToken,
} from './tokens.js';

/** Signup, sessions, account deletion, passwords, second factors, passkeys and API tokens (spec 4.1–4.3). */
export function bindIdentityRouteTables(
  bind: ContainerModuleLoadOptions['bind'],
  secureCookies: boolean,
): void {
  bind<RouteTable>(RouteTable).toResolvedValue(
    (signup: SignupService, tokens: ApiTokenInvalidation) =>
      signupRoutes(signup, (accountId) => tokens.invalidateAccount(accountId)),
    [SignupServiceToken, ApiTokenInvalidation],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (sessions: SessionService) => sessionRoutes(sessions, secureCookies),
    [SessionServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (
      deletion: AccountDeletionService,
      sessions: SessionService,
      tokens: ApiTokenInvalidation,
      organisations: OrganisationMembershipService,
    ) =>
      accountDeletionRoutes({ deletion, sessions, organisations }, secureCookies, (accountId) =>
        tokens.invalidateAccount(accountId),
      ),
    [
      AccountDeletionServiceToken,
      SessionServiceToken,
      ApiTokenInvalidation,
      OrganisationMembershipServiceToken,
    ],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (passwords: PasswordService, tokens: ApiTokenInvalidation) =>
      passwordRoutes(passwords, (accountId) => tokens.invalidateAccount(accountId)),
    [PasswordServiceToken, ApiTokenInvalidation],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (factors: SecondFactorService) => secondFactorRoutes(factors, secureCookies),
    [SecondFactorServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (passkeys: PasskeyService) => passkeyRoutes(passkeys, secureCookies),
    [PasskeyServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (tokens: ApiTokenService) => tokenRoutes(tokens),
    [ApiTokenServiceToken],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (
      organisations: OrganisationMembershipService,
      invitations: InvitationService,
      members: MemberService,
      tokens: ApiTokenInvalidation,
    ) =>
      organisationRoutes(organisations, invitations, members, (accountId) =>
        tokens.invalidateAccount(accountId),
      ),
    [OrganisationMembershipServiceToken, InvitationServiceToken, MemberServiceToken, ApiTokenInvalidation],
  );
  bind<RouteTable>(RouteTable).toResolvedValue(
    (members: MemberService, invitations: InvitationService, tokens: ApiTokenInvalidation) =>
      memberRoutes(members, invitations, (accountId) => tokens.invalidateAccount(accountId)),
    [MemberServiceToken, InvitationServiceToken, ApiTokenInvalidation],
  );
}
