import { createPublicKey, verify } from 'node:crypto';
import { type NodeOperatorFileName, operatorFileSignaturePayload } from '@svc/domain/filtering';
import { type NodeProfileDocument, type ProfilePublicKey, profileSignaturePayload } from '@svc/sdk';

/** SPKI DER header of an Ed25519 public key; the raw 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A profile document that must not be applied: unsigned, signed by an unknown key, or not matching. */
export class ProfileSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileSignatureError';
  }
}

/**
 * A correctly signed profile document that is not for this node now: `other_profile` when it is the document
 * of another profile than the one the node enrolled in (signatures cover any profile the server signs),
 * `older_version` when its version is below the one applied, `older_sequence` when it was issued before the one
 * applied (its `sequence` is lower, or absent once a sequence was applied): a replay of an earlier document,
 * such as one from before a list refresh, which keeps the profile's version.
 */
export class ProfileDocumentRefusedError extends Error {
  constructor(
    readonly reason: 'other_profile' | 'older_version' | 'older_sequence',
    message: string,
  ) {
    super(message);
    this.name = 'ProfileDocumentRefusedError';
  }
}

/**
 * Checks a profile document's Ed25519 signature against the keys announced at enrolment (spec 4.13): the key
 * named by `profile_key_id` must be one of them, with the same public key, and the signature must cover the
 * exact text of {@link profileSignaturePayload}. Throws {@link ProfileSignatureError}; returns the document.
 */
export function verifyProfileDocument(
  document: NodeProfileDocument,
  keys: readonly ProfilePublicKey[],
): NodeProfileDocument {
  const { profile_signature: signature, profile_key_id: keyId } = document;
  if (signature === undefined || keyId === undefined) {
    throw new ProfileSignatureError('the profile document is not signed');
  }
  const key = keys.find((candidate) => candidate.key_id === keyId);
  if (key === undefined || key.public_key !== document.profile_pubkey) {
    throw new ProfileSignatureError(`the profile document is signed by an unknown key (${keyId})`);
  }
  if (!signatureVerifies(key.public_key, profileSignaturePayload(document), signature)) {
    throw new ProfileSignatureError('the profile document’s signature does not verify');
  }
  return document;
}

function signatureVerifies(publicKeyBase64: string, payload: string, signature: string): boolean {
  const publicKey = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyBase64, 'base64')]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, Buffer.from(payload, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
}

/** What a node holds that a document must agree with, besides the signing keys. */
export interface AppliedProfile {
  /** The profile the node enrolled in. */
  profileId: string;
  /** The version of the document last applied, or null before the first. */
  version: number | null;
  /** The `sequence` of the document last applied, or null before the first that had one. */
  sequence?: number | null;
}

/**
 * {@link verifyProfileDocument}, then refuses a signed document of another profile or older than the one
 * applied ({@link ProfileDocumentRefusedError}): a lower version, or a lower `sequence` (documents of one version
 * differ after a list refresh, and only the sequence orders them). The same sequence again is accepted: it is
 * the same document.
 */
export function checkProfileDocument(
  document: NodeProfileDocument,
  keys: readonly ProfilePublicKey[],
  applied: AppliedProfile,
): NodeProfileDocument {
  verifyProfileDocument(document, keys);
  if (document.id !== applied.profileId) {
    throw new ProfileDocumentRefusedError(
      'other_profile',
      `the profile document is for profile ${document.id}, not ${applied.profileId} that this node enrolled in`,
    );
  }
  if (applied.version !== null && document.version < applied.version) {
    throw new ProfileDocumentRefusedError(
      'older_version',
      `the profile document has version ${document.version}, older than version ${applied.version} already applied`,
    );
  }
  const appliedSequence = applied.sequence ?? null;
  if (
    appliedSequence !== null &&
    !(typeof document.sequence === 'number' && document.sequence >= appliedSequence)
  ) {
    throw new ProfileDocumentRefusedError(
      'older_sequence',
      `the profile document was issued before the one already applied (sequence ${document.sequence ?? 'absent'}, applied ${appliedSequence})`,
    );
  }
  return document;
}

/** An `operator_file` message of the link (docs/node-link-protocol.md). */
export interface OperatorFileMessage {
  file: NodeOperatorFileName;
  version: number;
  document: Record<string, unknown>;
  signature?: string;
  key_id?: string;
  public_key?: string;
}

/**
 * Checks an operator file's Ed25519 signature as profile documents are checked: by one of the enrolment keys,
 * over `svc-operator-v1\n<file>\n<version>\n<compact canonical JSON of document>`. Throws
 * {@link ProfileSignatureError}.
 */
export function verifyOperatorFile(message: OperatorFileMessage, keys: readonly ProfilePublicKey[]): void {
  if (message.signature === undefined || message.key_id === undefined)
    throw new ProfileSignatureError(`the ${message.file} file is not signed`);
  const key = keys.find((candidate) => candidate.key_id === message.key_id);
  if (key === undefined || key.public_key !== message.public_key)
    throw new ProfileSignatureError(
      `the ${message.file} file is signed by an unknown key (${message.key_id})`,
    );
  const payload = operatorFileSignaturePayload(message.file, message.version, message.document);
  if (!signatureVerifies(key.public_key, payload, message.signature))
    throw new ProfileSignatureError(`the ${message.file} file’s signature does not verify`);
}
