import type {
  AuthenticationResponseJson,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
  RegistrationResponseJson,
} from '@svc/sdk';

/** Why a passkey ceremony did not finish in the browser (no API call failed). */
export class PasskeyCeremonyError extends Error {
  constructor(
    readonly reason: 'unsupported' | 'cancelled' | 'insecure' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'PasskeyCeremonyError';
  }
}

/** True when this browser can run passkey ceremonies from the API's JSON options (WebAuthn level 3). */
export function passkeysSupported(): boolean {
  return (
    typeof window.PublicKeyCredential === 'function' &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function' &&
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function'
  );
}

function ceremonyError(error: unknown): PasskeyCeremonyError {
  if (error instanceof DOMException && error.name === 'NotAllowedError')
    return new PasskeyCeremonyError('cancelled', 'The passkey request was cancelled or timed out.');
  if (error instanceof DOMException && error.name === 'SecurityError')
    return new PasskeyCeremonyError(
      'insecure',
      'Passkeys need the dashboard on a domain name such as localhost, not a bare IP address.',
    );
  if (error instanceof DOMException && error.name === 'InvalidStateError')
    return new PasskeyCeremonyError('failed', 'This authenticator already holds a passkey for your account.');
  return new PasskeyCeremonyError(
    'failed',
    error instanceof Error ? error.message : 'The passkey did not work.',
  );
}

function publicKeyCredential(credential: Credential | null): PublicKeyCredential {
  if (!(credential instanceof PublicKeyCredential))
    throw new PasskeyCeremonyError('cancelled', 'No passkey was chosen.');
  return credential;
}

function requireSupport(): void {
  if (!passkeysSupported())
    throw new PasskeyCeremonyError(
      'unsupported',
      'This browser cannot use passkeys here. Update it, or sign in another way.',
    );
}

/**
 * Creates a passkey from the API's creation options, and answers its JSON form for the API. The browser's own
 * JSON parsing and serialisation (WebAuthn level 3) do the base64url work.
 */
export async function createPasskey(options: PasskeyCreationOptions): Promise<RegistrationResponseJson> {
  requireSupport();
  try {
    const credential = await navigator.credentials.create({
      publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
    });
    return publicKeyCredential(credential).toJSON();
  } catch (error) {
    throw error instanceof PasskeyCeremonyError ? error : ceremonyError(error);
  }
}

/** Signs with a passkey for the API's request options, and answers the assertion's JSON form. */
export async function signWithPasskey(options: PasskeyRequestOptions): Promise<AuthenticationResponseJson> {
  requireSupport();
  try {
    const credential = await navigator.credentials.get({
      publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
    });
    return publicKeyCredential(credential).toJSON();
  } catch (error) {
    throw error instanceof PasskeyCeremonyError ? error : ceremonyError(error);
  }
}
