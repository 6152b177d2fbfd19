import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialDescriptorJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type {
  AuthenticationResponseJson,
  PasskeyCreationOptions,
  PasskeyCredential,
  PasskeyRequestOptions,
  RegisteredCredential,
  RegistrationResponseJson,
  Verification,
  WebAuthnVerifier,
} from '@svc/domain';

/** The relying party the ceremonies run for. */
export interface SimpleWebAuthnOptions {
  /** Shown by authenticators (`svc`). */
  rpName: string;
  /** The RP id: the dashboard's host or a registrable suffix of it (SVC_WEBAUTHN_RP_ID). */
  rpId: string;
  /** Dashboard origins; those that fit the RP id are the origins a response may come from. */
  origins: readonly string[];
}

/**
 * The library, loaded on the first ceremony: with its ASN.1 and X.509 dependencies it is the largest module
 * set of the server, and most servers never see a passkey between restarts.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const simpleWebAuthn = () => {
  library ??= import('@simplewebauthn/server');
  return library;
};

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(text, 'base64url'));

/** Ceremonies last as long as their challenge (two minutes). */
const TIMEOUT_MS = 120_000;

/**
 * True when browsers run WebAuthn for `rpId` on `origin`: a secure context (https, or localhost) whose host is
 * the RP id or a subdomain of it.
 */
function originFitsRpId(origin: string, rpId: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  const secure =
    url.protocol === 'https:' || url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
  return secure && (url.hostname === rpId || url.hostname.endsWith(`.${rpId}`));
}

const descriptor = (credential: PasskeyCredential): { id: string; transports: string[] } => ({
  id: credential.credentialId,
  transports: [...credential.transports],
});

/** Descriptors as the library emits them (every WebAuthn credential is of type `public-key`). */
const descriptors = (list: PublicKeyCredentialDescriptorJSON[] | undefined) =>
  list?.map((entry) => ({
    id: entry.id,
    type: 'public-key' as const,
    ...(entry.transports === undefined ? {} : { transports: [...entry.transports] }),
  }));

/** WebAuthn ceremonies through @simplewebauthn/server: attestation `none`, user verification preferred. */
export class SimpleWebAuthnVerifier implements WebAuthnVerifier {
  readonly available: boolean;
  private readonly origins: string[];

  constructor(private readonly options: SimpleWebAuthnOptions) {
    this.origins = options.origins.filter((origin) => originFitsRpId(origin, options.rpId));
    this.available = this.origins.length > 0;
  }

  async creationOptions(input: {
    challenge: string;
    userId: string;
    userName: string;
    exclude: readonly PasskeyCredential[];
  }): Promise<PasskeyCreationOptions> {
    const { generateRegistrationOptions } = await simpleWebAuthn();
    const options = await generateRegistrationOptions({
      rpName: this.options.rpName,
      rpID: this.options.rpId,
      userID: new TextEncoder().encode(input.userId),
      userName: input.userName,
      userDisplayName: input.userName,
      challenge: fromBase64Url(input.challenge),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: input.exclude.map(descriptor),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    return {
      rp: { name: options.rp.name, ...(options.rp.id === undefined ? {} : { id: options.rp.id }) },
      user: { id: options.user.id, name: options.user.name, displayName: options.user.displayName },
      challenge: options.challenge,
      pubKeyCredParams: options.pubKeyCredParams.map((param) => ({ type: param.type, alg: param.alg })),
      timeout: options.timeout,
      excludeCredentials: descriptors(options.excludeCredentials),
      authenticatorSelection: options.authenticatorSelection,
      hints: options.hints,
      attestation: options.attestation,
      extensions: { credProps: options.extensions?.credProps },
    };
  }

  async requestOptions(input: {
    challenge: string;
    allow: readonly PasskeyCredential[] | null;
  }): Promise<PasskeyRequestOptions> {
    const { generateAuthenticationOptions } = await simpleWebAuthn();
    const options = await generateAuthenticationOptions({
      rpID: this.options.rpId,
      challenge: fromBase64Url(input.challenge),
      timeout: TIMEOUT_MS,
      userVerification: 'preferred',
      ...(input.allow === null ? {} : { allowCredentials: input.allow.map(descriptor) }),
    });
    return {
      challenge: options.challenge,
      timeout: options.timeout,
      rpId: options.rpId,
      allowCredentials: descriptors(options.allowCredentials),
      userVerification: options.userVerification,
    };
  }

  challengeOf(response: RegistrationResponseJson | AuthenticationResponseJson): string | null {
    let clientData: unknown;
    try {
      clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
    } catch (error) {
      // Not base64url of JSON: the response names no challenge at all.
      if (error instanceof SyntaxError || error instanceof TypeError) return null;
      throw error;
    }
    if (typeof clientData !== 'object' || clientData === null || !('challenge' in clientData)) return null;
    return typeof clientData.challenge === 'string' ? clientData.challenge : null;
  }

  async verifyRegistration(
    response: RegistrationResponseJson,
    challenge: string,
  ): Promise<Verification<RegisteredCredential>> {
    const json: RegistrationResponseJSON = {
      id: response.id,
      rawId: response.rawId,
      type: response.type,
      response: response.response,
      clientExtensionResults: response.clientExtensionResults,
      ...(response.authenticatorAttachment === undefined
        ? {}
        : { authenticatorAttachment: response.authenticatorAttachment }),
    };
    const { verifyRegistrationResponse } = await simpleWebAuthn();
    try {
      const result = await verifyRegistrationResponse({
        response: json,
        expectedChallenge: challenge,
        expectedOrigin: this.origins,
        expectedRPID: this.options.rpId,
        // Options ask for user verification as `preferred`: an authenticator without it still registers.
        requireUserVerification: false,
      });
      if (!result.verified) return { verified: false, cause: new Error('The attestation did not verify.') };
      const { credential, aaguid } = result.registrationInfo;
      return {
        verified: true,
        value: {
          credentialId: credential.id,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: [...(credential.transports ?? [])],
          aaguid,
        },
      };
    } catch (error) {
      return { verified: false, cause: error };
    }
  }

  async verifyAuthentication(
    response: AuthenticationResponseJson,
    challenge: string,
    credential: PasskeyCredential & { publicKey: Uint8Array; counter: number },
  ): Promise<Verification<{ newCounter: number; userId: string | null }>> {
    const json: AuthenticationResponseJSON = {
      id: response.id,
      rawId: response.rawId,
      type: response.type,
      response: response.response,
      clientExtensionResults: response.clientExtensionResults,
      ...(response.authenticatorAttachment === undefined
        ? {}
        : { authenticatorAttachment: response.authenticatorAttachment }),
    };
    const { verifyAuthenticationResponse } = await simpleWebAuthn();
    try {
      const result = await verifyAuthenticationResponse({
        response: json,
        expectedChallenge: challenge,
        expectedOrigin: this.origins,
        expectedRPID: this.options.rpId,
        credential: {
          id: credential.credentialId,
          publicKey: new Uint8Array(credential.publicKey),
          counter: credential.counter,
          transports: [...credential.transports],
        },
        requireUserVerification: false,
      });
      if (!result.verified) return { verified: false, cause: new Error('The assertion did not verify.') };
      const handle = response.response.userHandle;
      return {
        verified: true,
        value: {
          newCounter: result.authenticationInfo.newCounter,
          userId:
            handle === undefined || handle === '' ? null : Buffer.from(handle, 'base64url').toString('utf8'),
        },
      };
    } catch (error) {
      return { verified: false, cause: error };
    }
  }
}
