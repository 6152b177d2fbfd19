import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DomainSet, type FilterList, type FilterListKind } from '@svc/domain/filtering';
import { request } from 'undici';

/** One list of a manifest (the profile document's `lists.artifacts`). */
export interface ManifestArtifact {
  list_id: number;
  kind: FilterListKind;
  name: string;
  /** What selected the list (issue 38); absent in manifests of servers before it. */
  ref?: string | undefined;
  /** A parental list only a device override chooses. */
  device_only?: boolean | undefined;
  version: number;
  sha256: string;
  size: number;
  url: string;
}

/** A download or check of a list artifact failed; the lists in force stay. */
export class ListArtifactError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ListArtifactError';
  }
}

const ADDRESS = /^[0-9a-f]{64}$/;
const MANIFEST_FILE = 'manifest.json';

/** Options of a {@link ListCache}. */
export interface ListCacheOptions {
  /** Where artifacts and the manifest in force are kept. */
  directory: string;
  /** The node token for downloads (read on each download: rotations change it). */
  token: () => string;
  /** Time-out of one download (default 120 s). */
  timeoutMs?: number;
}

/**
 * A node's compiled lists on disk and in memory (issue 29): downloads the artifacts a manifest names (gzip when
 * the server offers it), checks each one's SHA-256 and size before keeping it under its address, and swaps the
 * lists in force only once every artifact of the new manifest is verified and loaded, so queries are decided
 * with one whole set at a time. The manifest in force is written to disk after the swap, so a node restarted
 * without the API (offline) decides with its last good set ({@link loadLastGood}). Artifacts no manifest needs
 * any longer are removed after a swap.
 */
export class ListCache {
  private lists: FilterList[] = [];
  private manifest: ManifestArtifact[] = [];
  private readonly loaded = new Map<string, DomainSet>();

  constructor(private readonly options: ListCacheOptions) {}

  /** The lists in force. */
  get current(): readonly FilterList[] {
    return this.lists;
  }

  /** The manifest in force (what the lists were loaded from). */
  get currentManifest(): readonly ManifestArtifact[] {
    return this.manifest;
  }

  /** Loads the manifest in force at the last run and its artifacts from disk; false when there is none. */
  async loadLastGood(): Promise<boolean> {
    const text = await readFile(join(this.options.directory, MANIFEST_FILE), 'utf8').catch(missingAsNull);
    if (text === null) return false;
    const manifest = JSON.parse(text) as ManifestArtifact[];
    const sets = new Map<string, DomainSet>();
    for (const artifact of manifest) sets.set(artifact.sha256, await this.loadVerified(artifact));
    this.swap(manifest, sets);
    return true;
  }

  /**
   * Makes `manifest` the lists in force: downloads and verifies what is not on disk yet, loads every artifact,
   * then swaps. Throws {@link ListArtifactError} (the lists in force unchanged) when any artifact fails.
   */
  async sync(manifest: readonly ManifestArtifact[]): Promise<void> {
    await mkdir(this.options.directory, { recursive: true, mode: 0o700 });
    const sets = new Map<string, DomainSet>();
    for (const artifact of manifest) {
      if (!ADDRESS.test(artifact.sha256)) throw new ListArtifactError(`bad digest ${artifact.sha256}`);
      const known = this.loaded.get(artifact.sha256);
      if (known !== undefined) {
        sets.set(artifact.sha256, known);
        continue;
      }
      if (!(await this.onDisk(artifact))) await this.download(artifact);
      sets.set(artifact.sha256, await this.loadVerified(artifact));
    }
    this.swap([...manifest], sets);
    const aside = join(this.options.directory, `${MANIFEST_FILE}.${process.pid}.tmp`);
    await writeFile(aside, JSON.stringify(manifest), { mode: 0o600 });
    await rename(aside, join(this.options.directory, MANIFEST_FILE));
    await this.removeUnused(new Set(manifest.map((artifact) => artifact.sha256)));
  }

  private swap(manifest: ManifestArtifact[], sets: Map<string, DomainSet>): void {
    this.lists = manifest.map((artifact) => ({
      listId: artifact.list_id,
      kind: artifact.kind,
      name: artifact.name,
      ref: artifact.ref,
      deviceOnly: artifact.device_only === true,
      set: sets.get(artifact.sha256) as DomainSet,
    }));
    this.manifest = manifest;
    this.loaded.clear();
    for (const [sha256, set] of sets) this.loaded.set(sha256, set);
  }

  private pathOf(sha256: string): string {
    return join(this.options.directory, `${sha256}.list`);
  }

  private async onDisk(artifact: ManifestArtifact): Promise<boolean> {
    const facts = await stat(this.pathOf(artifact.sha256)).catch(missingAsNull);
    return facts !== null && facts.size === artifact.size;
  }

  /** Reads an artifact from disk, checks its digest again (a file may have been damaged) and loads it. */
  private async loadVerified(artifact: ManifestArtifact): Promise<DomainSet> {
    const bytes = await readFile(this.pathOf(artifact.sha256)).catch(missingAsNull);
    if (bytes === null)
      throw new ListArtifactError(`list ${artifact.list_id} (${artifact.sha256}) is not on disk`);
    if (createHash('sha256').update(bytes).digest('hex') !== artifact.sha256) {
      await rm(this.pathOf(artifact.sha256), { force: true });
      throw new ListArtifactError(`the file of list ${artifact.list_id} does not match its digest`);
    }
    try {
      return DomainSet.fromArtifact(bytes);
    } catch (error) {
      throw new ListArtifactError(`list ${artifact.list_id} cannot be read`, { cause: error });
    }
  }

  /** Downloads an artifact to a file aside, hashing it on the way, and moves it into place once it matches. */
  private async download(artifact: ManifestArtifact): Promise<void> {
    const aside = `${this.pathOf(artifact.sha256)}.${process.pid}.part`;
    try {
      const answer = await request(artifact.url, {
        headers: { authorization: `Bearer ${this.options.token()}`, 'accept-encoding': 'gzip' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 120_000),
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new ListArtifactError(`list ${artifact.list_id}: the API answered HTTP ${answer.statusCode}`);
      }
      const gzip = String(answer.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
      const hash = createHash('sha256');
      let size = 0;
      const counted = async function* (body: AsyncIterable<Buffer>) {
        for await (const chunk of body) {
          size += chunk.length;
          if (size > artifact.size)
            throw new ListArtifactError(`list ${artifact.list_id} is larger than announced`);
          hash.update(chunk);
          yield chunk;
        }
      };
      const body = gzip ? answer.body.pipe(createGunzip()) : answer.body;
      await pipeline(body, counted, createWriteStream(aside, { mode: 0o600 }));
      const digest = hash.digest('hex');
      if (digest !== artifact.sha256 || size !== artifact.size)
        throw new ListArtifactError(`list ${artifact.list_id} does not match its digest (got ${digest})`);
      await rename(aside, this.pathOf(artifact.sha256));
    } catch (error) {
      await rm(aside, { force: true });
      if (error instanceof ListArtifactError) throw error;
      throw new ListArtifactError(`list ${artifact.list_id} could not be downloaded`, { cause: error });
    }
  }

  private async removeUnused(keep: ReadonlySet<string>): Promise<void> {
    for (const name of await readdir(this.options.directory)) {
      const match = /^([0-9a-f]{64})\.list$/.exec(name);
      if (match?.[1] !== undefined && !keep.has(match[1]))
        await rm(join(this.options.directory, name), { force: true });
    }
  }
}

function missingAsNull(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT') return null;
  throw error;
}
