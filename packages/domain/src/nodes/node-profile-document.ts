import { ECS_OPERATOR_CAP_DEFAULT, type EcsOperatorCap } from '../ecs/ecs.js';
import type { NodeListArtifact } from '../lists/profile-list-selection.js';
import { type DocumentPolicy, edgeProfileCore, NO_DOCUMENT_POLICY } from '../profiles/edge-document.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import { compactCanonicalJson } from '../shared/canonical-json.js';
import type { NodeProfileDocument } from './node.schemas.js';
import { profileSignaturePayload } from './profile-signature.js';
import type { ProfileSigner } from './profile-signer.ports.js';

/**
 * The profile document a self-hosted node applies (spec 4.13, 9): the edge document's fields (its `ecs` part
 * with the operator's cap included) with its compiled lists as a manifest `{ids, url, sha256, artifacts}`
 * (whose digest covers the manifest, so the signature covers every artifact's digest), the deprecated
 * `lists_url` and `lists_sha256` always sent alongside, the `sequence` it was issued under, and the signature
 * fields when `signer` signs.
 */
export function nodeProfileDocument(
  profile: ProfileRecord,
  lists: { url: string; artifacts: NodeListArtifact[] },
  sequence: number,
  sha256: (data: string) => string,
  signer: ProfileSigner,
  ecsOperatorCap: EcsOperatorCap = ECS_OPERATOR_CAP_DEFAULT,
  policy: DocumentPolicy = NO_DOCUMENT_POLICY,
): NodeProfileDocument {
  const ids = [...profile.lists].sort((a, b) => a - b);
  const listsUrl = lists.url;
  const listsSha256 = nodeListsDigest(lists.artifacts, sha256);
  const document: NodeProfileDocument = {
    ...edgeProfileCore(profile, ecsOperatorCap, policy),
    lists: { ids, url: listsUrl, sha256: listsSha256, artifacts: lists.artifacts },
    lists_url: listsUrl,
    lists_sha256: listsSha256,
    updated_at: profile.updatedAt.toISOString(),
    sequence,
  };
  const signed = signer.sign(profileSignaturePayload(document));
  if (signed === null) return document;
  return {
    ...document,
    profile_signature: signed.signature,
    profile_key_id: signed.key.keyId,
    profile_pubkey: signed.key.publicKey,
  };
}

/** The digest of a lists manifest: hex SHA-256 of the compact canonical JSON of its artifacts. */
export function nodeListsDigest(
  artifacts: readonly NodeListArtifact[],
  sha256: (data: string) => string,
): string {
  return sha256(compactCanonicalJson(artifacts));
}

/**
 * The `sequence` of a document issued at `now`: the time of issue in Unix milliseconds, and never before the
 * profile's last change, so that a document always sorts after the changes it carries even when the server
 * issuing it keeps a clock behind the one that made them.
 *
 * Why a time and not a version: a list refresh changes what a node must apply without changing the profile
 * (its version is the owner's, and their If-Match), and keeping a counter per profile bumped by every refresh
 * of every list it uses would need a write per profile per refresh. Any document issued later carries what
 * was current then, so the time of issue orders documents as their contents must be ordered: a node refusing
 * a sequence below the one it applied refuses every replay of an earlier document (docs/node-link-protocol.md
 * "Signed profile documents").
 */
export function nodeDocumentSequence(profile: ProfileRecord, now: Date): number {
  return Math.max(now.getTime(), profile.updatedAt.getTime());
}
