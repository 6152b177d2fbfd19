import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  decideQuery,
  type FilteringContext,
  NodeOperatorBlocksFile,
  NodeOperatorSourcesFile,
  prepareFiltering,
  type QueryDecision,
  type QueryToDecide,
} from '@svc/domain/filtering';
import { NodeProfileDocument as NodeProfileDocumentSchema } from '@svc/domain/profile-documents';
import type { NodeProfileDocument } from '@svc/sdk';
import { ListCache, type ManifestArtifact } from './list-cache.js';
import type { OperatorFileMessage } from './profile-verification.js';

const PROFILE_FILE = 'profile.json';
const OPERATOR_FILES = { operator_blocks: 'operator-blocks.json', operator_sources: 'operator-sources.json' };

/** Options of a {@link NodeFilter}. */
export interface NodeFilterOptions {
  /** Where the lists, the last profile document and the operator files are kept between runs. */
  directory: string;
  /** The node token for list downloads. */
  token: () => string;
  /** Time-out of one list download. */
  downloadTimeoutMs?: number;
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, text, { mode: 0o600 });
  await rename(aside, path);
}

function missingAsNull(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT') return null;
  throw error;
}

/**
 * What a node decides queries with (issue 29): the verified profile document, its compiled lists
 * ({@link ListCache}) and the operator files, kept on disk so that a node restarted without the API serves its
 * last good set, and prepared into one {@link FilteringContext} for the decision function shared with the
 * cloud (`decideQuery`). Each change prepares a new context and swaps it in whole.
 */
export class NodeFilter {
  readonly lists: ListCache;
  private document: NodeProfileDocument | null = null;
  private blocks: NodeOperatorBlocksFile | null = null;
  private sources: NodeOperatorSourcesFile | null = null;
  private context: FilteringContext | null = null;
  /**
   * Writes to disk run one at a time, in the order of the changes: two operator files arriving back to back
   * (the welcome's, then a change's) must leave the newer on disk, not whichever write finished last.
   */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: NodeFilterOptions) {
    this.lists = new ListCache({
      directory: join(options.directory, 'lists'),
      token: options.token,
      ...(options.downloadTimeoutMs === undefined ? {} : { timeoutMs: options.downloadTimeoutMs }),
    });
  }

  /** True once a profile document is applied (queries can be decided). */
  get ready(): boolean {
    return this.context !== null;
  }

  /** The profile document in force. */
  get profile(): NodeProfileDocument | null {
    return this.document;
  }

  /** The operator file versions in force. */
  get operatorVersions(): { operator_blocks: number | null; operator_sources: number | null } {
    return { operator_blocks: this.blocks?.version ?? null, operator_sources: this.sources?.version ?? null };
  }

  /**
   * Restores the last good state from disk (profile document, lists, operator files); false when no profile
   * document was kept, or what was kept is not one. The document was verified when it was kept.
   */
  async loadLastGood(): Promise<boolean> {
    const profile = await readFile(join(this.options.directory, PROFILE_FILE), 'utf8').catch(missingAsNull);
    for (const file of ['operator_blocks', 'operator_sources'] as const) {
      const text = await readFile(join(this.options.directory, OPERATOR_FILES[file]), 'utf8').catch(
        missingAsNull,
      );
      if (text !== null) this.setOperatorFile(file, JSON.parse(text));
    }
    if (profile === null) return false;
    // A kept file that is no profile document (damaged, or written by another kit) is no last good state. Fields
    // of a newer document than this kit knows are kept, as they were when it verified.
    const kept = NodeProfileDocumentSchema.loose().safeParse(JSON.parse(profile));
    if (!kept.success) return false;
    await this.lists.loadLastGood();
    this.document = kept.data;
    this.prepare();
    return true;
  }

  /**
   * Applies a verified profile document: its rules at once, its lists once every artifact of its manifest is
   * downloaded and verified. When lists fail (offline, a bad download) the document still applies with the
   * lists in force, and the error is thrown after, for the caller to retry.
   */
  async applyProfile(document: NodeProfileDocument): Promise<void> {
    await mkdir(this.options.directory, { recursive: true, mode: 0o700 });
    let failure: unknown;
    try {
      await this.lists.sync(document.lists.artifacts as ManifestArtifact[]);
    } catch (error) {
      failure = error;
    }
    this.document = document;
    this.prepare();
    await this.write(PROFILE_FILE, JSON.stringify(document));
    if (failure !== undefined) throw failure;
  }

  /**
   * Applies an operator file whose signature verified, and keeps it for the next start. A version older than
   * the one in force is not applied (nothing goes back to an older file).
   */
  async applyOperatorFile(message: OperatorFileMessage): Promise<void> {
    const inForce = this.operatorVersions[message.file];
    if (inForce !== null && message.version < inForce) return;
    this.setOperatorFile(message.file, message.document);
    this.prepare();
    await mkdir(this.options.directory, { recursive: true, mode: 0o700 });
    await this.write(OPERATOR_FILES[message.file], JSON.stringify(message.document));
  }

  /**
   * The decision for a query (see `decideQuery`); throws before a profile document is applied. Pass the
   * query's `at` (Unix ms, from the node's clock): operator entries expire, pauses and allowances end and
   * schedules open and close by it; and its `device` (the DoT/DoQ host's `<device>-<id>`, the DoH path), whose
   * overrides the document carries.
   */
  decide(query: QueryToDecide): QueryDecision {
    if (this.context === null) throw new Error('no profile document applied yet');
    return decideQuery(this.context, query);
  }

  /** Writes a file of the directory atomically, after the writes before it. */
  private write(file: string, text: string): Promise<void> {
    const written = this.writes.then(() => writeAtomically(join(this.options.directory, file), text));
    this.writes = written.catch(() => undefined);
    return written;
  }

  private setOperatorFile(file: OperatorFileMessage['file'], document: unknown): void {
    if (file === 'operator_blocks') this.blocks = NodeOperatorBlocksFile.parse(document);
    else this.sources = NodeOperatorSourcesFile.parse(document);
  }

  private prepare(): void {
    const document = this.document;
    if (document === null) return;
    this.context = prepareFiltering({
      // The pause, allowances and schedules end and open by the query's time (`at`), not by a new document.
      profile: {
        filtering: document.filtering,
        paused_until: document.paused_until ?? null,
        settings: document.settings,
        rules: document.rules,
        schedules: document.schedules,
        bedtime: document.bedtime,
        schedule_assignments: document.schedule_assignments,
        allowances: document.allowances,
        devices: document.devices,
      },
      lists: this.lists.current,
      operatorBlocks: this.blocks?.blocks ?? [],
      sourceBlocks: this.sources?.sources ?? [],
    });
  }
}
