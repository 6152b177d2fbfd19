import type { DeviceStore } from '../devices/device.ports.js';
import type { EcsOperatorCap } from '../ecs/ecs.js';
import type { ListArtifactStore, ListVersionRecord } from '../lists/list-pipeline.ports.js';
import {
  type NodeListArtifact,
  nodeListManifest,
  profileListSelection,
  type SelectedList,
} from '../lists/profile-list-selection.js';
import { documentPolicyOf } from '../profiles/document-policy.js';
import type { ProfileStore } from '../profiles/profile.ports.js';
import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Clock } from '../shared/clock.ports.js';
import { notFound } from '../shared/domain-error.js';
import type { KeyedHash } from '../shared/keyed-hash.ports.js';
import type { NodeRecord } from './node.records.js';
import type { NodeProfileDocument } from './node.schemas.js';
import { revoked } from './node-credentials.js';
import { nodeDocumentSequence, nodeListsDigest, nodeProfileDocument } from './node-profile-document.js';
import type { ProfileSigner } from './profile-signer.ports.js';

/** A compiled list's artifact as a node downloads it: gzip-compressed as stored. */
export interface NodeListDownload {
  sha256: string;
  /** Uncompressed size. */
  size: number;
  compressedSize: number;
  chunks: AsyncIterable<Uint8Array>;
}

/** What a node's documents are made from. */
export interface NodeDocumentDependencies {
  profileStore: ProfileStore;
  /** The profile's devices that override something (issue 38), which the documents carry. */
  devicePolicies: Pick<DeviceStore, 'documentPolicies'>;
  clock: Clock;
  keyedHash: KeyedHash;
  signer: ProfileSigner;
  /** `{base_url}` of the spec, for `lists.url`. */
  baseUrl: string;
  /** The operator's ECS cap, carried in profile documents as the edge's are (default: no cap). */
  ecsOperatorCap?: EcsOperatorCap;
  /** The compiled lists: each list's newest version (derived ones compiled when missing), and their artifacts. */
  lists: {
    versionsFor(selection: readonly SelectedList[]): Promise<ReadonlyMap<number, ListVersionRecord>>;
    artifacts: Pick<ListArtifactStore, 'openCompressed'>;
  };
}

/**
 * What an enrolled node downloads (spec 4.13): its profile's document, signed when the server signs, and the
 * compiled lists its manifest names, and nothing else.
 */
export class NodeDocuments {
  constructor(private readonly deps: NodeDocumentDependencies) {}

  /** GET /v1/nodes/self/profile: the node's profile document, signed when the server signs. */
  async profileDocument(node: NodeRecord): Promise<NodeProfileDocument> {
    const profile = await this.deps.profileStore.find(node.orgId, node.profileId);
    if (profile === null) throw revoked();
    return nodeProfileDocument(
      profile,
      { url: `${this.base()}/v1/nodes/self/lists`, artifacts: await this.manifestOf(profile) },
      nodeDocumentSequence(profile, this.deps.clock.now()),
      (data) => this.deps.keyedHash.sha256(data),
      this.deps.signer,
      this.deps.ecsOperatorCap,
      await this.policyOf(profile),
    );
  }

  /**
   * The digest of the node's lists manifest (`lists.sha256`), for the link's welcome: a node whose applied
   * manifest has another digest fetches the document again.
   */
  async listsDigest(profile: ProfileRecord): Promise<string> {
    return nodeListsDigest(await this.manifestOf(profile), (data) => this.deps.keyedHash.sha256(data));
  }

  /**
   * GET /v1/nodes/self/lists/{sha256}: an artifact of the node's current manifest; 404 for any other (another
   * profile's list, an older version, an unknown digest).
   */
  async listArtifact(node: NodeRecord, sha256: string): Promise<NodeListDownload> {
    const profile = await this.deps.profileStore.find(node.orgId, node.profileId);
    if (profile === null) throw revoked();
    const entry = (await this.manifestOf(profile)).find((artifact) => artifact.sha256 === sha256);
    if (entry === undefined) throw notFound('list artifact');
    const stored = await this.deps.lists.artifacts.openCompressed(sha256);
    if (stored === null) throw notFound('list artifact');
    return { sha256, size: entry.size, compressedSize: stored.size, chunks: stored.chunks };
  }

  /** The policy the documents carry now, with the devices that override something. */
  private async policyOf(profile: ProfileRecord) {
    const devices = await this.deps.devicePolicies.documentPolicies(profile.id);
    return documentPolicyOf(profile, this.deps.clock.now(), devices);
  }

  private base(): string {
    return this.deps.baseUrl.replace(/\/+$/, '');
  }

  private async manifestOf(profile: ProfileRecord): Promise<NodeListArtifact[]> {
    // The parental lists only a device override chooses go to the node too, marked device-only (ADR 0043).
    const { devices } = await this.policyOf(profile);
    const selection = profileListSelection(profile, { forNodes: true, devices });
    const versions = await this.deps.lists.versionsFor(selection);
    return nodeListManifest(selection, versions, (sha256) => `${this.base()}/v1/nodes/self/lists/${sha256}`);
  }
}
