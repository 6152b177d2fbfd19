// @ts-check
/**
 * The JSON forms of WebAuthn options and responses (as @simplewebauthn/server produces and reads them) and
 * the browser's binary ones: base64url strings on the wire, ArrayBuffers for navigator.credentials.
 */

/** @param {string} text base64url without padding */
export function fromBase64Url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

/** @param {ArrayBuffer | null} buffer */
export function toBase64Url(buffer) {
  if (buffer === null) return undefined;
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * @typedef {{ id: string, type: 'public-key', transports?: string[] }} CredentialDescriptorJson
 * @typedef {{ challenge: string, rpId?: string, timeout?: number, userVerification?: UserVerificationRequirement,
 *   allowCredentials?: CredentialDescriptorJson[] }} RequestOptionsJson
 * @typedef {{ challenge: string, rp: PublicKeyCredentialRpEntity, user: { id: string, name: string, displayName: string },
 *   pubKeyCredParams: PublicKeyCredentialParameters[], timeout?: number, attestation?: AttestationConveyancePreference,
 *   authenticatorSelection?: AuthenticatorSelectionCriteria, excludeCredentials?: CredentialDescriptorJson[] }} CreationOptionsJson
 */

/** @param {CredentialDescriptorJson} descriptor @returns {PublicKeyCredentialDescriptor} */
function descriptorOf(descriptor) {
  return {
    id: fromBase64Url(descriptor.id),
    type: 'public-key',
    ...(descriptor.transports === undefined
      ? {}
      : { transports: /** @type {AuthenticatorTransport[]} */ (descriptor.transports) }),
  };
}

/** @param {RequestOptionsJson} options @returns {PublicKeyCredentialRequestOptions} */
export function requestOptionsOf(options) {
  return {
    challenge: fromBase64Url(options.challenge),
    ...(options.rpId === undefined ? {} : { rpId: options.rpId }),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.userVerification === undefined ? {} : { userVerification: options.userVerification }),
    allowCredentials: (options.allowCredentials ?? []).map(descriptorOf),
  };
}

/** @param {CreationOptionsJson} options @returns {PublicKeyCredentialCreationOptions} */
export function creationOptionsOf(options) {
  return {
    challenge: fromBase64Url(options.challenge),
    rp: options.rp,
    user: { ...options.user, id: fromBase64Url(options.user.id) },
    pubKeyCredParams: options.pubKeyCredParams,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.attestation === undefined ? {} : { attestation: options.attestation }),
    ...(options.authenticatorSelection === undefined
      ? {}
      : { authenticatorSelection: options.authenticatorSelection }),
    excludeCredentials: (options.excludeCredentials ?? []).map(descriptorOf),
  };
}

/** @param {PublicKeyCredential} credential an assertion, as `{response}` of POST /v1/auth/passkeys/authentication */
export function assertionJson(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64Url(response.clientDataJSON),
      authenticatorData: toBase64Url(response.authenticatorData),
      signature: toBase64Url(response.signature),
      userHandle: toBase64Url(response.userHandle),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** @param {PublicKeyCredential} credential an attestation, as `{response}` of POST /v1/auth/passkeys/registration */
export function attestationJson(credential) {
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  return {
    id: credential.id,
    rawId: toBase64Url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64Url(response.clientDataJSON),
      attestationObject: toBase64Url(response.attestationObject),
      transports: response.getTransports(),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}
