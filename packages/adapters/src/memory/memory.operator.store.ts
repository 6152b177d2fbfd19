import {
  isAfterKeyset,
  newestFirst,
  type OperatorBlockRecord,
  type OperatorEntryRepository,
  type OperatorFileName,
  type OperatorRepository,
  operatorEntryStatus,
  type ProfileSuspensionRecord,
  type SourceBlockRecord,
} from '@svc/domain';
import type { Snapshottable } from './memory-snapshot.js';

interface Entry {
  id: string;
  createdAt: Date;
  removedBy: string | null;
  removedAt: Date | null;
  expiresAt: Date | null;
  expiredAt: Date | null;
}

interface OperatorState {
  blocks: Map<string, OperatorBlockRecord>;
  sources: Map<string, SourceBlockRecord>;
  files: Map<OperatorFileName, { version: number; document: unknown }>;
  suspensions: Map<string, ProfileSuspensionRecord>;
}

function emptyState(): OperatorState {
  return {
    blocks: new Map(),
    sources: new Map(),
    files: new Map([
      ['operator_blocks', { version: 0, document: null }],
      ['operator_sources', { version: 0, document: null }],
    ]),
    suspensions: new Map(),
  };
}

const copy = <T>(value: T): T => structuredClone(value);

function isLive(entry: Entry, now: Date): boolean {
  return entry.expiredAt === null && operatorEntryStatus(entry, now) === 'live';
}

function entries<T extends Entry>(
  rows: () => Map<string, T>,
  holdsKey?: (entry: T) => string,
): OperatorEntryRepository<T> {
  return {
    insert: async (entry) => {
      const key = holdsKey?.(entry);
      if (key !== undefined) {
        const held = [...rows().values()].some(
          (row) => row.removedAt === null && row.expiredAt === null && holdsKey?.(row) === key,
        );
        if (held) return 'exists';
      }
      rows().set(entry.id, copy(entry));
      return 'inserted';
    },
    find: async (id) => {
      const row = rows().get(id);
      return row === undefined ? null : copy(row);
    },
    remove: async (id, by, at) => {
      const row = rows().get(id);
      if (row === undefined || row.removedAt !== null) return null;
      row.removedBy = by;
      row.removedAt = new Date(at);
      return copy(row);
    },
    list: async (status, now, page) =>
      [...rows().values()]
        .filter(
          (row) =>
            (status === undefined ||
              (status === 'live' ? isLive(row, now) : operatorEntryStatus(row, now) === status)) &&
            isAfterKeyset(row, page.after),
        )
        .sort(newestFirst)
        .slice(0, page.limit)
        .map(copy),
    live: async (now) =>
      [...rows().values()]
        .filter((row) => isLive(row, now))
        .sort((a, b) => -newestFirst(a, b))
        .map(copy),
    markExpired: async (now) => {
      let marked = 0;
      for (const row of rows().values()) {
        if (
          row.removedAt === null &&
          row.expiredAt === null &&
          row.expiresAt !== null &&
          row.expiresAt <= now
        ) {
          row.expiredAt = new Date(now);
          marked += 1;
        }
      }
      return marked;
    },
  };
}

/**
 * Operator entries, files and suspensions of an engine-free server, snapshot for rollback. Memory runs are
 * serial, which is what the file lock gives PostgreSQL; a live block's pattern is unique as the partial index
 * makes it there. `profileOrg` asks the profile store, which owns the profiles.
 */
export class MemoryOperatorStore implements Snapshottable {
  private state = emptyState();

  constructor(private readonly profileOrgOf: (profileId: string) => string | null) {}

  snapshot(): unknown {
    return structuredClone(this.state);
  }

  restore(snapshot: unknown): void {
    this.state = snapshot as OperatorState;
  }

  repository(): OperatorRepository {
    return {
      blocks: entries(
        () => this.state.blocks,
        (block) => block.pattern,
      ),
      sources: entries(() => this.state.sources),
      lockFile: async (file) => this.state.files.get(file)?.version ?? 0,
      saveFile: async (file, version, document) => {
        this.state.files.set(file, { version, document: copy(document) });
      },
      readFile: async (file) => {
        const stored = this.state.files.get(file);
        return {
          version: stored?.version ?? 0,
          document: stored === undefined ? null : copy(stored.document),
        };
      },
      profileOrg: async (profileId) => this.profileOrgOf(profileId),
      findSuspension: async (profileId) => {
        const row = this.state.suspensions.get(profileId);
        return row === undefined ? null : copy(row);
      },
      setSuspension: async (profileId, suspension) => {
        if (suspension === null) this.state.suspensions.delete(profileId);
        else this.state.suspensions.set(profileId, copy(suspension));
      },
    };
  }
}
