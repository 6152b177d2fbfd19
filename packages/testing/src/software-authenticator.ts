import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/** A CBOR data item of the kinds WebAuthn needs: integers, byte and text strings, arrays and maps. */
export type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

/** The head of a CBOR item: major type and argument, in the shortest form (RFC 8949 section 3). */
function cborHead(major: number, argument: number): Buffer {
  if (!Number.isSafeInteger(argument) || argument < 0) throw new RangeError(`bad CBOR argument ${argument}`);
  const type = major << 5;
  if (argument < 24) return Buffer.from([type | argument]);
  if (argument < 0x100) return Buffer.from([type | 24, argument]);
  if (argument < 0x10000) {
    const head = Buffer.alloc(3);
    head[0] = type | 25;
    head.writeUInt16BE(argument, 1);
    return head;
  }
  if (argument < 0x1_0000_0000) {
    const head = Buffer.alloc(5);
    head[0] = type | 26;
    head.writeUInt32BE(argument, 1);
    return head;
  }
  const head = Buffer.alloc(9);
  head[0] = type | 27;
  head.writeBigUInt64BE(BigInt(argument), 1);
  return head;
}

/**
 * Encodes a CBOR item (RFC 8949), maps in the order given: the caller lists keys in CTAP2 canonical order
 * (shorter first, then bytewise), as authenticators do.
 */
export function encodeCbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new RangeError('only integers are encoded');
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  // ArrayBuffer.isView rather than instanceof: under jsdom (the dashboard's component tests) the global
  // Uint8Array is another realm's, of which Node's Buffers are no instance.
  if (ArrayBuffer.isView(value)) {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return Buffer.concat([cborHead(2, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(encodeCbor)]);
  const parts: Buffer[] = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
  return Buffer.concat(parts);
}

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** Authenticator data flags (WebAuthn L3 6.1). */
const Flags = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 } as const;

/** The parts of creation options an authenticator reads. */
export interface CreationOptionsSeen {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

/** The parts of request options an authenticator reads. */
export interface RequestOptionsSeen {
  challenge: string;
  rpId?: string;
}

/** What a ceremony may be told to do differently, to make responses a server must refuse. */
export interface CeremonyOverrides {
  /** The origin the client reports in clientDataJSON (default: the authenticator's origin). */
  origin?: string;
  /** The signature counter to report instead of the next one. */
  signCount?: number;
  /** The challenge to sign instead of the options' one. */
  challenge?: string;
}

/** The JSON form of a new credential, as PublicKeyCredential.toJSON() gives it to a server. */
export interface RegistrationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  authenticatorAttachment: 'platform';
  clientExtensionResults: { credProps: { rk: boolean } };
}

/** The JSON form of an assertion. */
export interface AuthenticationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  authenticatorAttachment: 'platform';
  clientExtensionResults: Record<string, never>;
}

/**
 * A software passkey on node:crypto: one ES256 (P-256) credential with a signature counter, producing
 * genuine WebAuthn responses (attestation `none`, discoverable, user present and verified), so tests run
 * the server's real verification instead of a stub.
 */
export class SoftwareAuthenticator {
  /** The credential id, random like a real authenticator's. */
  readonly credentialId: Buffer = randomBytes(32);
  /** The signature counter of the last ceremony. */
  signCount: number;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The user handle from registration, returned with every assertion (a discoverable credential). */
  private userHandle: string | undefined;

  constructor(
    readonly origin = 'http://localhost:3000',
    options: { signCount?: number } = {},
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.signCount = options.signCount ?? 0;
  }

  /** The credential id in base64url, as servers and options name it. */
  get id(): string {
    return base64url(this.credentialId);
  }

  /** The public key as a COSE_Key map: EC2 (1: 2), ES256 (3: -7), P-256 (-1: 1), x (-2), y (-3). */
  cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    if (jwk.x === undefined || jwk.y === undefined) throw new Error('not an EC public key');
    return encodeCbor(
      new Map<CborValue, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
  }

  /** navigator.credentials.create(): a `none` attestation of this credential for the options' challenge. */
  register(options: CreationOptionsSeen, overrides: CeremonyOverrides = {}): RegistrationResponse {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData(
      'webauthn.create',
      overrides.challenge ?? options.challenge,
      overrides,
    );
    const signCount = overrides.signCount ?? this.signCount;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authDataHead(
        rpId,
        Flags.userPresent | Flags.userVerified | Flags.attestedCredentialData,
        signCount,
      ),
      Buffer.alloc(16), // AAGUID: zeros, as passkeys without attestation report
      idLength,
      this.credentialId,
      this.cosePublicKey(),
    ]);
    const attestationObject = encodeCbor(
      new Map<CborValue, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientDataJSON),
        attestationObject: base64url(attestationObject),
        transports: ['hybrid', 'internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /**
   * navigator.credentials.get(): an assertion over authData || SHA-256(clientDataJSON), signed ECDSA P-256
   * SHA-256 with a DER signature as WebAuthn requires. The counter goes up by one; an overridden count is
   * reported once and leaves the counter as it was.
   */
  authenticate(options: RequestOptionsSeen, overrides: CeremonyOverrides = {}): AuthenticationResponse {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const clientDataJSON = this.clientData(
      'webauthn.get',
      overrides.challenge ?? options.challenge,
      overrides,
    );
    if (overrides.signCount === undefined) this.signCount += 1;
    const signCount = overrides.signCount ?? this.signCount;
    const authData = this.authDataHead(rpId, Flags.userPresent | Flags.userVerified, signCount);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
        ...(this.userHandle === undefined ? {} : { userHandle: this.userHandle }),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }),
      'utf8',
    );
  }

  /** rpIdHash (32) | flags (1) | signCount (4, big-endian). */
  private authDataHead(rpId: string, flags: number, signCount: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter]);
  }
}
