/** A passkey (WebAuthn credential) as stored: its public key only; the private key never leaves the authenticator. */
export interface PasskeyRecord {
  /** Our id (uuid), used in the API; the authenticator's own id is `credentialId`. */
  id: string;
  accountId: string;
  /** The credential id the authenticator chose, base64url; unique across every account. */
  credentialId: string;
  /** The COSE public key as the authenticator sent it. */
  publicKey: Uint8Array;
  /** The last signature counter seen; a clone of the authenticator shows as a counter that stops increasing. */
  counter: number;
  /** How the browser can reach the authenticator (`internal`, `hybrid`, `usb`, …), as the client reported. */
  transports: string[];
  /** The authenticator model's AAGUID (all zeros for most passkeys without attestation). */
  aaguid: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Which WebAuthn ceremony a challenge was issued for. */
export type WebAuthnCeremony = 'registration' | 'authentication';

/**
 * A single-use WebAuthn challenge, stored only as its keyed hash. A registration challenge is bound to the
 * session that asked for it; a sign-in challenge to nothing but itself (whoever holds it runs the ceremony).
 */
export interface WebAuthnChallengeRow {
  challengeHash: string;
  ceremony: WebAuthnCeremony;
  sessionId: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}
