import type { PasskeyRecord, WebAuthnCeremony, WebAuthnChallengeRow } from './passkey.records.js';
import type {
  AuthenticationResponseJson,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  RegistrationResponseJson,
} from './passkey.schemas.js';

/** The passkeys of accounts. */
export interface PasskeyRepository {
  /** Stores a new passkey; false when its credential id is already stored (for any account). */
  create(passkey: PasskeyRecord): Promise<boolean>;
  /** The account's passkeys, oldest first. */
  listByAccount(accountId: string): Promise<PasskeyRecord[]>;
  findByCredentialId(credentialId: string): Promise<PasskeyRecord | null>;
  /** Renames one passkey of the account; null when it has none by that id. */
  rename(accountId: string, id: string, name: string): Promise<PasskeyRecord | null>;
  /**
   * Records a sign-in with the authenticator's new signature counter, unless the counter does not increase
   * (both zero is allowed: authenticators without a counter); atomic, so of two racing uses one loses.
   */
  recordUse(id: string, counter: number, at: Date): Promise<boolean>;
  /**
   * Locks the account's sign-in credentials until the transaction ends (concurrent removals wait) and returns
   * them: whether it has a password and its passkey ids. Null when there is no such account.
   */
  lockCredentials(accountId: string): Promise<{ hasPassword: boolean; passkeyIds: string[] } | null>;
  /** Removes one passkey of the account; false when it has none by that id. */
  delete(accountId: string, id: string): Promise<boolean>;
}

/** Single-use WebAuthn challenges, by keyed hash. */
export interface WebAuthnChallengeRepository {
  create(challenge: WebAuthnChallengeRow): Promise<void>;
  /**
   * Marks the challenge used and returns it when it is of this ceremony, bound to `sessionId` (null for
   * sign-in), unused and unexpired at `now`; null otherwise. Atomic: of two racing uses, one wins.
   */
  consume(
    ceremony: WebAuthnCeremony,
    challengeHash: string,
    sessionId: string | null,
    now: Date,
  ): Promise<WebAuthnChallengeRow | null>;
  /** Forgets challenges that expired before `before` (they can no longer be used anyway). */
  prune(before: Date): Promise<void>;
}

/** A credential as the ceremonies need it: to exclude, allow or check a signature. */
export interface PasskeyCredential {
  credentialId: string;
  transports: string[];
}

/** What a verified registration proves: a new credential and its public key. */
export interface RegisteredCredential {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  aaguid: string;
}

/** A verification outcome: the proven facts, or why the response was refused (kept as the cause). */
export type Verification<T> = { verified: true; value: T } | { verified: false; cause: unknown };

/**
 * WebAuthn ceremonies with a maintained library in the adapter (the domain never parses attestation or
 * checks signatures itself). The relying party (id, name, allowed origins) is the adapter's configuration.
 */
export const WebAuthnVerifier = Symbol.for('svc.WebAuthnVerifier');
export interface WebAuthnVerifier {
  /** False when the deployment cannot run ceremonies (no dashboard origin fits the RP id): 501 passkeys_unavailable. */
  readonly available: boolean;
  /** Options for navigator.credentials.create(): `challenge` is base64url of random bytes, `userId` the account id. */
  creationOptions(input: {
    challenge: string;
    userId: string;
    userName: string;
    exclude: readonly PasskeyCredential[];
  }): Promise<PasskeyCreationOptions>;
  /** Options for navigator.credentials.get(); `allow` null asks for a discoverable credential. */
  requestOptions(input: {
    challenge: string;
    allow: readonly PasskeyCredential[] | null;
  }): Promise<PasskeyRequestOptions>;
  /** The challenge the response's clientDataJSON carries, or null when it carries none that can be read. */
  challengeOf(response: RegistrationResponseJson | AuthenticationResponseJson): string | null;
  /** Checks an attestation against `challenge`, the RP id and the allowed origins. */
  verifyRegistration(
    response: RegistrationResponseJson,
    challenge: string,
  ): Promise<Verification<RegisteredCredential>>;
  /**
   * Checks an assertion's signature with the stored key, against `challenge`, the RP id and the origins, and
   * that the signature counter increased. `userId` is the account id the authenticator returned, if any.
   */
  verifyAuthentication(
    response: AuthenticationResponseJson,
    challenge: string,
    credential: PasskeyCredential & { publicKey: Uint8Array; counter: number },
  ): Promise<Verification<{ newCounter: number; userId: string | null }>>;
}
