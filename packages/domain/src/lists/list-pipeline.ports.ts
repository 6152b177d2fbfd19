import type { InvalidLineSample, ListCompileStats } from './list-compiler.js';

/** The validators of a source's last good fetch, sent back as a conditional GET. */
export interface SourceValidators {
  etag: string | null;
  lastModified: string | null;
}

/** What a fetch of a source came to. */
export type SourceFetchOutcome<T> =
  | { status: 'not_modified'; httpStatus: number }
  | { status: 'fetched'; httpStatus: number; validators: SourceValidators; result: T };

/** Why a fetch of a source failed, after its retries. */
export type SourceFetchFailureReason =
  | 'http_status'
  | 'timeout'
  | 'too_large'
  | 'network'
  | 'unreadable'
  /** A redirect to plain http or to a loopback, private or reserved address (never retried). */
  | 'forbidden_target';

/** A source could not be fetched (or its body not read); the last good version stays. */
export class SourceFetchError extends Error {
  constructor(
    readonly reason: SourceFetchFailureReason,
    message: string,
    readonly httpStatus: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SourceFetchError';
  }
}

/**
 * Fetches list sources over HTTP(S): a conditional GET with the last validators, a body no larger than the
 * configured cap, a time-out, and retries with backoff on failures worth retrying (network errors, time-outs,
 * 5xx, 429). `consume` reads the body as it arrives and may be called once per attempt, so it must start
 * afresh each time. Throws {@link SourceFetchError} when every attempt failed.
 */
export const ListSourceFetcher = Symbol.for('svc.ListSourceFetcher');
export interface ListSourceFetcher {
  fetch<T>(
    url: string,
    validators: SourceValidators,
    consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
  ): Promise<SourceFetchOutcome<T>>;
}

/** An artifact in the store: its content address (hex SHA-256 of its bytes) and size. */
export interface StoredArtifact {
  sha256: string;
  size: number;
}

/**
 * Content-addressed storage of list artifacts (list-artifact.ts): an artifact is stored under the SHA-256 of
 * its bytes, once, and never changes. Kept compressed (gzip), so that nodes are served the stored bytes.
 */
export const ListArtifactStore = Symbol.for('svc.ListArtifactStore');
export interface ListArtifactStore {
  /** Stores the bytes given in order; answers their address (storing nothing new when it is known). */
  put(chunks: Iterable<Uint8Array>): Promise<StoredArtifact>;
  /** The whole artifact, or null when unknown. */
  read(sha256: string): Promise<Uint8Array | null>;
  /** The artifact gzip-compressed as stored, chunk by chunk, with its compressed size; null when unknown. */
  openCompressed(sha256: string): Promise<{ size: number; chunks: AsyncIterable<Uint8Array> } | null>;
}

/** What a source's compilation found, kept with its last good version. */
export interface SourceCompileFacts {
  entries: number;
  exceptions: number;
  duplicates: number;
  invalid: number;
  ignored: number;
  invalidSamples: InvalidLineSample[];
}

/** The compile facts of a compilation's statistics. */
export function compileFacts(stats: ListCompileStats): SourceCompileFacts {
  return {
    entries: stats.entries,
    exceptions: stats.exceptions,
    duplicates: stats.duplicates,
    invalid: stats.invalid,
    ignored: stats.ignored,
    invalidSamples: stats.invalidSamples,
  };
}

/** The outcome of a source's last fetch attempt. */
type SourceFetchStatus = 'ok' | 'not_modified' | 'failed';

/** What the pipeline knows of one source. */
export interface ListSourceState {
  sourceId: string;
  /** The address last fetched (a changed catalogue address drops the validators). */
  url: string;
  validators: SourceValidators;
  /** The last good artifact compiled from it, with what that compilation found; null before one. */
  artifact: (StoredArtifact & SourceCompileFacts) | null;
  /** The last attempt: when, how it ended, the HTTP status, and why it failed. */
  checkedAt: Date | null;
  status: SourceFetchStatus | null;
  httpStatus: number | null;
  error: string | null;
  /** Attempts failed in a row since the last good one. */
  failures: number;
  /** When the last attempt succeeded (a 304 counts). */
  okAt: Date | null;
  /** When its content last changed (a new artifact). */
  changedAt: Date | null;
}

/** One compiled version of a list. */
export interface ListVersionRecord {
  listId: number;
  /** 1 for the first compilation, one more for each new content. */
  version: number;
  sha256: string;
  size: number;
  entries: number;
  exceptions: number;
  /** The source artifacts it was compiled from (`import` for `svc lists import`). */
  sources: { id: string; sha256: string }[];
  compiledAt: Date;
}

/**
 * The list pipeline's state: each source's last fetch and good artifact, and each list's versions. Several
 * API servers share it; a refresh is run by one of them at a time through {@link claimRefresh}.
 */
export const ListPipelineStore = Symbol.for('svc.ListPipelineStore');
export interface ListPipelineStore {
  sources(): Promise<ListSourceState[]>;
  saveSource(state: ListSourceState): Promise<void>;
  /** Each list's newest version. */
  currentVersions(): Promise<ListVersionRecord[]>;
  /**
   * Records a compilation of a list: when its digest differs from the newest version's, as the next version
   * (answered with `created`); otherwise the newest version stays and is answered.
   */
  recordVersion(
    version: Omit<ListVersionRecord, 'version'>,
  ): Promise<{ record: ListVersionRecord; created: boolean }>;
  /**
   * Claims the refresh until `until` when no other claim runs at `now`; false otherwise. `holder` names the
   * claimant, whose own claim it may renew.
   */
  claimRefresh(holder: string, now: Date, until: Date): Promise<boolean>;
  /** Ends a claim (a finished refresh); when it last finished is kept. */
  releaseRefresh(holder: string, finishedAt: Date): Promise<void>;
  /** When a refresh last finished, or null. */
  lastRefresh(): Promise<Date | null>;
}
