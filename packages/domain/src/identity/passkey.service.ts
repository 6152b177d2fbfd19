import type { AuditSource } from '../audit/audit.ports.js';
import { secondFactorChangedMail } from '../mail/identity.mails.js';
import { encodeBytesBase64Url } from '../shared/base64url.js';
import { DomainError, notFound } from '../shared/domain-error.js';
import { normaliseEmail } from './account-view.js';
import { assertEmailVerified } from './email-verification.js';
import type { IdentityDependencies } from './identity.dependencies.js';
import type { AccountRecord, SessionRow } from './identity.records.js';
import type { PasskeyScope } from './identity-transaction.ports.js';
import type { PasskeyCredential, WebAuthnVerifier } from './passkey.ports.js';
import type { PasskeyRecord, WebAuthnCeremony } from './passkey.records.js';
import type {
  AuthenticationResponseJson,
  Passkey,
  PasskeyCreationOptions,
  PasskeyRegistered,
  PasskeyRegistrationRequest,
  PasskeyRequestOptions,
  RegistrationResponseJson,
} from './passkey.schemas.js';
import { recoveryCodesForFirstFactor } from './recovery-codes.js';
import { recordSecondFactorChange, type SecondFactorOwner } from './second-factor-audit.js';
import type { IssuedSession, SessionService, SignInContext } from './session.service.js';

/** A WebAuthn challenge is single use and lives two minutes (the options' timeout says the same). */
const WEBAUTHN_CHALLENGE_TTL_MS = 2 * 60_000;
const CHALLENGE_PURPOSE = 'webauthn-challenge';
const DECOY_PURPOSE = 'passkey-decoy-credential';
/** Looked up for an unknown address, so both paths run the same queries. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/** The public form of a stored passkey. */
export function passkeyView(record: PasskeyRecord): Passkey {
  return {
    id: record.id,
    name: record.name,
    created_at: record.createdAt.toISOString(),
    last_used_at: iso(record.lastUsedAt),
    transports: [...record.transports],
  };
}

const credentialOf = (record: PasskeyRecord): PasskeyCredential => ({
  credentialId: record.credentialId,
  transports: record.transports,
});

const ceremonyInvalid = () =>
  new DomainError(
    'ceremony_invalid',
    'This passkey ceremony is unknown, was already used, has expired or belongs to another session; start again.',
  );

/**
 * Passkeys (spec 5.5.1, ROUTES.md "Second factors"): registration from a recent sign-in, sign-in that is a
 * strong sign-in on its own and is never slowed (spec 5.2.3), listing, renaming and removal. Every
 * challenge is single use, lives two minutes, and is stored as a keyed hash; the response's clientDataJSON
 * names it, so a sign-in needs no ceremony id beside the challenge itself.
 */
export class PasskeyService {
  constructor(
    private readonly deps: IdentityDependencies<PasskeyScope>,
    private readonly sessions: SessionService,
    private readonly webauthn: WebAuthnVerifier,
  ) {}

  /** GET /v1/auth/passkeys: oldest first. */
  async list(accountId: string): Promise<Passkey[]> {
    return (await this.deps.store.passkeys.listByAccount(accountId)).map(passkeyView);
  }

  /** PATCH /v1/auth/passkeys/{id}: 404 for another account's passkey. */
  async rename(accountId: string, id: string, name: string): Promise<Passkey> {
    const renamed = await this.deps.store.passkeys.rename(accountId, id, name);
    if (renamed === null) throw notFound('passkey');
    return passkeyView(renamed);
  }

  /**
   * DELETE /v1/auth/passkeys/{id} (step-up). 409 last_credential when it is the account's last way to sign
   * in; the check and the removal hold the account's credentials locked, so two removals cannot both pass.
   */
  async remove(
    session: SessionRow,
    owner: SecondFactorOwner,
    id: string,
    source: AuditSource,
  ): Promise<void> {
    this.sessions.assertStepUp(session);
    const accountId = session.accountId;
    await this.deps.uow.run(async (tx) => {
      const credentials = await tx.identity.passkeys.lockCredentials(accountId);
      if (credentials === null || !credentials.passkeyIds.includes(id)) throw notFound('passkey');
      if (!credentials.hasPassword && credentials.passkeyIds.length === 1) {
        throw new DomainError(
          'last_credential',
          'This passkey is the only way to sign in to this account; add another passkey or a password first.',
        );
      }
      await tx.identity.passkeys.delete(accountId, id);
      const totp = await tx.identity.secondFactors.totp(accountId);
      await tx.identity.secondFactors.setMfa(
        accountId,
        credentials.passkeyIds.length > 1 || totp.enabledAt !== null,
      );
      await this.notify(tx, owner.email, 'a passkey was removed from signing in');
      await recordSecondFactorChange(tx, {
        accountId,
        orgId: owner.orgId,
        source,
        at: this.deps.clock.now(),
        details: { factor: 'passkey', change: 'removed', passkey_id: id },
      });
    });
  }

  /**
   * POST /v1/auth/passkeys/registration/options: step-up, or a restricted recovery session setting up a
   * factor again. The challenge is bound to this session.
   */
  async registrationOptions(session: SessionRow, account: AccountRecord): Promise<PasskeyCreationOptions> {
    this.assertAvailable();
    assertEmailVerified(account);
    if (!session.restricted) this.sessions.assertStepUp(session);
    const existing = await this.deps.store.passkeys.listByAccount(account.id);
    const challenge = await this.newChallenge('registration', session.id);
    return this.webauthn.creationOptions({
      challenge,
      userId: account.id,
      userName: account.email,
      exclude: existing.map(credentialOf),
    });
  }

  /**
   * POST /v1/auth/passkeys/registration: verifies the attestation against this session's challenge and
   * stores the credential. The account's second factor is on from now; the first one brings recovery codes,
   * and a restricted recovery session becomes a normal one.
   */
  async register(
    session: SessionRow,
    owner: SecondFactorOwner,
    request: PasskeyRegistrationRequest,
    source: AuditSource,
  ): Promise<PasskeyRegistered> {
    this.assertAvailable();
    assertEmailVerified(owner);
    const challenge = await this.consumeChallenge('registration', request.response, session.id);
    const verified = await this.webauthn.verifyRegistration(request.response, challenge);
    if (!verified.verified) {
      throw new DomainError('passkey_invalid', 'The passkey could not be verified.', {
        cause: verified.cause,
      });
    }
    const credential = verified.value;
    const accountId = session.accountId;
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const count = (await tx.identity.passkeys.listByAccount(accountId)).length;
      const record: PasskeyRecord = {
        id: this.deps.random.uuid(),
        accountId,
        credentialId: credential.credentialId,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports,
        aaguid: credential.aaguid,
        name: request.name ?? `Passkey ${count + 1}`,
        createdAt: now,
        lastUsedAt: null,
      };
      if (!(await tx.identity.passkeys.create(record))) {
        throw new DomainError('passkey_exists', 'This passkey is already registered.');
      }
      await tx.identity.secondFactors.setMfa(accountId, true);
      if (session.restricted) await tx.identity.sessions.liftRestriction(session.id);
      const codes = await recoveryCodesForFirstFactor(this.deps, tx, accountId, now);
      await this.notify(tx, owner.email, `a passkey ("${record.name}") was added for signing in`);
      await recordSecondFactorChange(tx, {
        accountId,
        orgId: owner.orgId,
        source,
        at: now,
        details: {
          factor: 'passkey',
          change: 'added',
          passkey_id: record.id,
          name: record.name,
          recovery_codes_issued: codes !== undefined,
        },
      });
      const passkey = passkeyView(record);
      return codes === undefined ? { passkey } : { passkey, recovery_codes: codes };
    });
  }

  /**
   * POST /v1/auth/passkeys/authentication/options. Without an email the browser offers discoverable passkeys.
   * With one, the account's passkeys are allowed; an address without an account (or without passkeys) gets
   * one credential id derived from a keyed hash of the address, the same on every call, so the answer does
   * not tell whether the address is registered.
   */
  async authenticationOptions(rawEmail: string | undefined): Promise<PasskeyRequestOptions> {
    this.assertAvailable();
    let allow: PasskeyCredential[] | null = null;
    if (rawEmail !== undefined) {
      const email = normaliseEmail(rawEmail);
      const account = await this.deps.store.accounts.findByEmail(email);
      const passkeys = await this.deps.store.passkeys.listByAccount(account?.id ?? NO_ACCOUNT);
      allow =
        passkeys.length > 0
          ? passkeys.map(credentialOf)
          : [
              {
                credentialId: this.deps.keyedHash.mac(DECOY_PURPOSE, email),
                transports: ['hybrid', 'internal'],
              },
            ];
    }
    const challenge = await this.newChallenge('authentication', null);
    return this.webauthn.requestOptions({ challenge, allow });
  }

  /**
   * POST /v1/auth/passkeys/authentication: a verified assertion signs in with a strong session. Not slowed
   * after failures (spec 5.2.3): there is no secret to guess, and every attempt spends a fresh challenge.
   * Unknown credential: 401 invalid_credentials; a counter that does not increase: 400 passkey_invalid.
   */
  async authenticate(response: AuthenticationResponseJson, context: SignInContext): Promise<IssuedSession> {
    this.assertAvailable();
    const challenge = await this.consumeChallenge('authentication', response, null);
    const passkey = await this.deps.store.passkeys.findByCredentialId(response.id);
    if (passkey === null) {
      throw new DomainError('invalid_credentials', 'This passkey is not registered here.');
    }
    const verified = await this.webauthn.verifyAuthentication(response, challenge, {
      ...credentialOf(passkey),
      publicKey: passkey.publicKey,
      counter: passkey.counter,
    });
    if (!verified.verified) {
      throw new DomainError('passkey_invalid', 'The passkey could not be verified.', {
        cause: verified.cause,
      });
    }
    const { newCounter, userId } = verified.value;
    if (userId !== null && userId !== passkey.accountId) {
      throw new DomainError('passkey_invalid', 'The passkey answered for another user.');
    }
    if (!(await this.deps.store.passkeys.recordUse(passkey.id, newCounter, this.deps.clock.now()))) {
      throw new DomainError(
        'passkey_invalid',
        'The passkey signature counter did not increase; the authenticator may have been cloned.',
      );
    }
    const account = await this.deps.store.accounts.findById(passkey.accountId);
    if (account === null)
      throw new DomainError('invalid_credentials', 'This passkey is not registered here.');
    return this.sessions.issue(account, 'passkey', true, context);
  }

  private assertAvailable(): void {
    if (!this.webauthn.available) {
      throw new DomainError(
        'passkeys_unavailable',
        'Passkeys are not available here: no dashboard origin fits the WebAuthn relying party id.',
      );
    }
  }

  /** A fresh challenge (256 random bits, base64url), stored as its keyed hash for `ceremony`. */
  private async newChallenge(ceremony: WebAuthnCeremony, sessionId: string | null): Promise<string> {
    const now = this.deps.clock.now();
    const challenge = encodeBytesBase64Url(this.deps.random.bytes(32));
    await this.deps.store.webauthnChallenges.prune(now);
    await this.deps.store.webauthnChallenges.create({
      challengeHash: this.deps.keyedHash.mac(CHALLENGE_PURPOSE, challenge),
      ceremony,
      sessionId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
      usedAt: null,
    });
    return challenge;
  }

  /** Uses up the challenge the response names: 400 ceremony_invalid unless it is live and this ceremony's. */
  private async consumeChallenge(
    ceremony: WebAuthnCeremony,
    response: RegistrationResponseJson | AuthenticationResponseJson,
    sessionId: string | null,
  ): Promise<string> {
    const challenge = this.webauthn.challengeOf(response);
    if (challenge === null) throw ceremonyInvalid();
    const consumed = await this.deps.store.webauthnChallenges.consume(
      ceremony,
      this.deps.keyedHash.mac(CHALLENGE_PURPOSE, challenge),
      sessionId,
      this.deps.clock.now(),
    );
    if (consumed === null) throw ceremonyInvalid();
    return challenge;
  }

  private async notify(tx: PasskeyScope, email: string, change: string): Promise<void> {
    await tx.mail.enqueue(
      secondFactorChangedMail(email, change, {
        security: `${this.deps.settings.dashboardUrl}/account/security`,
      }),
    );
  }
}
