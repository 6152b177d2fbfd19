import { z } from 'zod';

/** base64url without padding, as WebAuthn's JSON forms carry binary values. */
const Base64Url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be base64url');

/** A credential id in base64url (at most 1023 bytes, WebAuthn L3). */
const CredentialId = Base64Url(1400).min(1);
const Transport = z.string().max(32);

/** A passkey name: 1 to 64 characters after trimming. */
const PasskeyName = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

/** A registered passkey (ROUTES.md "Second factors"). */
export const Passkey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
    transports: z
      .array(z.string())
      .meta({ description: 'How the browser reaches the authenticator (`internal`, `hybrid`, `usb`, …).' }),
  })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.object({ passkeys: z.array(Passkey) }).meta({ id: 'PasskeyList' });
export const PasskeyRename = z.object({ name: PasskeyName }).meta({ id: 'PasskeyRename' });

/** A credential named in creation or request options. */
const CredentialDescriptor = z.object({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(z.string()).optional(),
});

/** Options for navigator.credentials.create(), the JSON form of WebAuthn L3 (as @simplewebauthn/server emits). */
export const PasskeyCreationOptions = z
  .object({
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({
      id: z.string().meta({ description: 'base64url of the UTF-8 bytes of the account id.' }),
      name: z.string(),
      displayName: z.string(),
    }),
    challenge: z
      .string()
      .meta({ description: 'base64url; single use, valid two minutes, for this session.' }),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number().int() })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(CredentialDescriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
        requireResidentKey: z.boolean().optional(),
        residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
        userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
      })
      .optional(),
    hints: z.array(z.string()).optional(),
    attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
    extensions: z.object({ credProps: z.boolean().optional() }).optional(),
  })
  .meta({ id: 'PasskeyCreationOptions' });
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptions>;

/** Options for navigator.credentials.get(), the JSON form of WebAuthn L3. */
export const PasskeyRequestOptions = z
  .object({
    challenge: z.string().meta({ description: 'base64url; single use, valid two minutes.' }),
    timeout: z.number().int().optional(),
    rpId: z.string().optional(),
    allowCredentials: z
      .array(CredentialDescriptor)
      .optional()
      .meta({ description: 'Absent when no email was given: the browser offers discoverable passkeys.' }),
    userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
  })
  .meta({ id: 'PasskeyRequestOptions' });
export type PasskeyRequestOptions = z.infer<typeof PasskeyRequestOptions>;

/** What navigator.credentials.create() gave, in its JSON form (PublicKeyCredential.toJSON()). */
export const RegistrationResponseJson = z
  .object({
    id: CredentialId,
    rawId: CredentialId,
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64Url(8192),
      attestationObject: Base64Url(65536),
      authenticatorData: Base64Url(65536).optional(),
      transports: z.array(Transport).max(16).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: Base64Url(8192).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z
      .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
      .default({}),
  })
  .meta({ id: 'PasskeyRegistrationResponse' });
export type RegistrationResponseJson = z.infer<typeof RegistrationResponseJson>;

/** What navigator.credentials.get() gave, in its JSON form. */
export const AuthenticationResponseJson = z
  .object({
    id: CredentialId,
    rawId: CredentialId,
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64Url(8192),
      authenticatorData: Base64Url(65536),
      signature: Base64Url(8192),
      userHandle: Base64Url(128).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.object({}).default({}),
  })
  .meta({ id: 'PasskeyAuthenticationResponse' });
export type AuthenticationResponseJson = z.infer<typeof AuthenticationResponseJson>;

/** POST /v1/auth/passkeys/registration. */
export const PasskeyRegistrationRequest = z
  .object({
    name: PasskeyName.optional().meta({ description: 'Defaults to `Passkey <n>`.' }),
    response: RegistrationResponseJson,
  })
  .meta({ id: 'PasskeyRegistrationRequest' });
export type PasskeyRegistrationRequest = z.infer<typeof PasskeyRegistrationRequest>;

/** POST /v1/auth/passkeys/registration answer: recovery codes only with the first second factor. */
export const PasskeyRegistered = z
  .object({ passkey: Passkey, recovery_codes: z.array(z.string()).optional() })
  .meta({ id: 'PasskeyRegistered' });
export type PasskeyRegistered = z.infer<typeof PasskeyRegistered>;

/** POST /v1/auth/passkeys/authentication/options. */
export const PasskeyAuthenticationOptionsRequest = z
  .object({
    email: z
      .email('must be an email address')
      .max(254)
      .optional()
      .meta({ description: 'Without it the browser offers discoverable passkeys.' }),
  })
  .meta({ id: 'PasskeyAuthenticationOptionsRequest' });

/** POST /v1/auth/passkeys/authentication. */
export const PasskeyAuthenticationRequest = z
  .object({ response: AuthenticationResponseJson })
  .meta({ id: 'PasskeyAuthenticationRequest' });
