import type { NodeProfileDocument } from '@svc/sdk';
import type { AgentCredentials } from './agent-credentials.js';
import type { NodeAgentLogger, NodeAgentOptions } from './node-agent.options.js';
import { checkProfileDocument, ProfileDocumentRefusedError } from './profile-verification.js';

/** What applying profile documents needs. */
export interface ProfileApplicationDependencies {
  options: Pick<NodeAgentOptions, 'filter' | 'onProfile' | 'onRejectedProfile' | 'onListsError'>;
  credentials: AgentCredentials;
  logger: NodeAgentLogger;
  /** Fetches the profile document in force (GET /v1/nodes/self/profile). */
  fetchDocument(): Promise<NodeProfileDocument>;
}

/**
 * The profile document the node applies: fetched, verified against the enrolment keys, refused when it is
 * another profile's or older than the one applied, then applied to the filter and handed to `onProfile`; the
 * version applied is persisted with the credentials, so that a replayed older document is refused after a
 * restart too.
 */
export class ProfileApplication {
  private appliedVersion: number | null = null;
  private appliedSequence: number | null = null;
  /** The digest of the lists manifest whose lists are all in force; null until they are. */
  private appliedLists: string | null = null;
  /** Refreshes run one at a time, so that a slower fetch never applies after a newer one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ProfileApplicationDependencies) {}

  /** The version of the last document applied, or null before the first. */
  get version(): number | null {
    return this.appliedVersion;
  }

  /** Takes up where the last run stopped: the version and sequence its credentials recorded. */
  resume(): void {
    const credentials = this.deps.credentials.current();
    this.appliedVersion = credentials.appliedProfileVersion ?? null;
    this.appliedSequence = credentials.appliedProfileSequence ?? null;
  }

  /** Whether a welcome announces a profile version or lists other than those in force. */
  isBehind(profileVersion: unknown, listsSha256: unknown): boolean {
    const listsChanged = typeof listsSha256 === 'string' && listsSha256 !== this.appliedLists;
    return profileVersion !== this.appliedVersion || listsChanged;
  }

  /** Fetches, verifies and applies the document in force, after any refresh in progress. */
  refresh(): Promise<NodeProfileDocument> {
    const refreshed = this.queue.then(() => this.applyCurrent());
    this.queue = refreshed.catch(() => undefined);
    return refreshed;
  }

  private async applyCurrent(): Promise<NodeProfileDocument> {
    const document = await this.deps.fetchDocument();
    this.check(document);
    await this.applyLists(document);
    await this.deps.options.onProfile?.(document);
    const sequence = document.sequence ?? this.appliedSequence;
    if (document.version !== this.appliedVersion || sequence !== this.appliedSequence) {
      this.appliedVersion = document.version;
      this.appliedSequence = sequence;
      await this.deps.credentials.update({
        appliedProfileVersion: document.version,
        ...(sequence === null ? {} : { appliedProfileSequence: sequence }),
      });
    }
    return document;
  }

  /** Throws (after logging why and telling `onRejectedProfile`) when the document is not to be applied. */
  private check(document: NodeProfileDocument): void {
    const credentials = this.deps.credentials.current();
    try {
      checkProfileDocument(document, credentials.profileKeys, {
        profileId: credentials.profileId,
        version: this.appliedVersion,
        sequence: this.appliedSequence,
      });
    } catch (error) {
      const refusal = error instanceof Error ? error : new Error(String(error));
      this.deps.logger.warn(`profile document refused: ${refusal.message}`, {
        reason: refusal instanceof ProfileDocumentRefusedError ? refusal.reason : 'signature',
        document_profile_id: document.id,
        document_version: document.version,
        profile_id: credentials.profileId,
        applied_version: this.appliedVersion,
        document_sequence: document.sequence,
        applied_sequence: this.appliedSequence,
      });
      this.deps.options.onRejectedProfile?.(refusal);
      throw refusal;
    }
  }

  /** Brings the filter's lists up to the document's manifest; a failure keeps the lists in force. */
  private async applyLists(document: NodeProfileDocument): Promise<void> {
    const filter = this.deps.options.filter;
    if (filter === undefined) {
      this.appliedLists = document.lists.sha256;
      return;
    }
    try {
      await filter.applyProfile(document);
      this.appliedLists = document.lists.sha256;
    } catch (error) {
      // The document's rules apply; its lists stay as they were until the next change or welcome.
      this.appliedLists = null;
      this.deps.options.onListsError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
