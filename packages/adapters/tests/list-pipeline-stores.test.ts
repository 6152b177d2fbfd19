import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ListArtifactStore, ListPipelineStore, ListSourceState } from '@svc/domain';
import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FileListArtifactStore,
  MemoryListArtifactStore,
  MemoryListPipelineStore,
  PostgresListArtifactStore,
  PostgresListPipelineStore,
} from '../src/index.js';

interface Opened<T> {
  store: T;
  dispose(): Promise<void>;
}

function onEngine<T>(open: () => Promise<TestDatabase>, make: (database: TestDatabase) => T) {
  return async (): Promise<Opened<T>> => {
    const engine = await open();
    return { store: make(engine), dispose: engine.dispose };
  };
}

const ARTIFACT_STORES: { name: string; skip: boolean; open: () => Promise<Opened<ListArtifactStore>> }[] = [
  {
    name: 'memory',
    skip: false,
    open: async () => ({ store: new MemoryListArtifactStore(), dispose: async () => undefined }),
  },
  {
    name: 'data dir',
    skip: false,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-lists-'));
      return {
        store: new FileListArtifactStore(dir),
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'PGlite',
    skip: false,
    open: onEngine(openPglite, (engine) => new PostgresListArtifactStore(engine.database.pool)),
  },
  {
    name: 'PostgreSQL server',
    skip: postgresServerSkipReason !== undefined,
    open: onEngine(openPostgresServer, (engine) => new PostgresListArtifactStore(engine.database.pool)),
  },
];

const STATE_STORES: { name: string; skip: boolean; open: () => Promise<Opened<ListPipelineStore>> }[] = [
  {
    name: 'memory',
    skip: false,
    open: async () => ({ store: new MemoryListPipelineStore(), dispose: async () => undefined }),
  },
  {
    name: 'PGlite',
    skip: false,
    open: onEngine(openPglite, (engine) => new PostgresListPipelineStore(engine.database.pool)),
  },
  {
    name: 'PostgreSQL server',
    skip: postgresServerSkipReason !== undefined,
    open: onEngine(openPostgresServer, (engine) => new PostgresListPipelineStore(engine.database.pool)),
  },
];

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

const SHA_OF_HELLO = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';

for (const { name, skip, open } of ARTIFACT_STORES) {
  describe.skipIf(skip)(`ListArtifactStore contract: ${name}`, () => {
    let opened: Opened<ListArtifactStore>;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(() => opened.dispose());

    it('stores bytes under their SHA-256 and gives them back whole and gzip-compressed', async () => {
      const stored = await opened.store.put([Buffer.from('hel'), Buffer.from('lo')]);
      expect(stored).toEqual({ sha256: SHA_OF_HELLO, size: 5 });
      expect(Buffer.from((await opened.store.read(SHA_OF_HELLO)) ?? [])).toEqual(Buffer.from('hello'));
      const compressed = await opened.store.openCompressed(SHA_OF_HELLO);
      if (compressed === null) throw new Error('stored');
      const bytes = await collect(compressed.chunks);
      expect(bytes.length).toBe(compressed.size);
      expect(gunzipSync(bytes).toString()).toBe('hello');
    });

    it('stores one content once, however often it is put', async () => {
      await opened.store.put([Buffer.from('hello')]);
      expect(await opened.store.put([Buffer.from('he'), Buffer.from('llo')])).toEqual({
        sha256: SHA_OF_HELLO,
        size: 5,
      });
    });

    it('keeps a large artifact in several chunks', async () => {
      const lines = Array.from({ length: 200_000 }, (_, index) => `=host-${index * 7919}.example\n`).join('');
      const stored = await opened.store.put([Buffer.from(lines)]);
      expect(Buffer.from((await opened.store.read(stored.sha256)) ?? []).toString()).toBe(lines);
    });

    it('answers null for an unknown or malformed address', async () => {
      expect(await opened.store.read('0'.repeat(64))).toBeNull();
      expect(await opened.store.openCompressed('0'.repeat(64))).toBeNull();
      expect(await opened.store.read('../../etc/passwd')).toBeNull();
    });
  });
}

describe('FileListArtifactStore', () => {
  it('leaves no half-written file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-lists-'));
    try {
      const store = new FileListArtifactStore(dir);
      await store.put([Buffer.from('hello')]);
      expect(readdirSync(join(dir, 'lists'))).toEqual([`${SHA_OF_HELLO}.gz`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const source = (overrides: Partial<ListSourceState> = {}): ListSourceState => ({
  sourceId: 'stevenblack-unified',
  url: 'https://example.invalid/hosts',
  validators: { etag: '"abc"', lastModified: null },
  artifact: {
    sha256: 'a'.repeat(64),
    size: 10,
    entries: 3,
    exceptions: 0,
    duplicates: 1,
    invalid: 2,
    ignored: 4,
    invalidSamples: [{ line: 9, text: '0.0.0.0 bad..name', reason: 'has an empty label' }],
  },
  checkedAt: new Date('2026-11-26T06:00:00.000Z'),
  status: 'ok',
  httpStatus: 200,
  error: null,
  failures: 0,
  okAt: new Date('2026-11-26T06:00:00.000Z'),
  changedAt: new Date('2026-11-26T06:00:00.000Z'),
  ...overrides,
});

const version = (sha: string) => ({
  listId: 8,
  sha256: sha,
  size: 100,
  entries: 5,
  exceptions: 1,
  sources: [{ id: 'adguard-dns-filter', sha256: sha }],
  compiledAt: new Date('2026-11-26T06:00:00.000Z'),
});

for (const { name, skip, open } of STATE_STORES) {
  describe.skipIf(skip)(`ListPipelineStore contract: ${name}`, () => {
    let opened: Opened<ListPipelineStore>;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(() => opened.dispose());

    it('keeps each source’s state, replacing it on save', async () => {
      await opened.store.saveSource(source());
      await opened.store.saveSource(source({ status: 'failed', error: 'HTTP 500', failures: 2 }));
      expect(await opened.store.sources()).toEqual([
        source({ status: 'failed', error: 'HTTP 500', failures: 2 }),
      ]);
    });

    it('numbers versions from 1, one more per new content, none for the same content', async () => {
      expect((await opened.store.recordVersion(version('a'.repeat(64)))).record.version).toBe(1);
      const same = await opened.store.recordVersion(version('a'.repeat(64)));
      expect(same).toMatchObject({ created: false, record: { version: 1 } });
      const next = await opened.store.recordVersion(version('b'.repeat(64)));
      expect(next).toMatchObject({ created: true, record: { version: 2, sha256: 'b'.repeat(64) } });
      // Back to an earlier content: still a new version.
      expect((await opened.store.recordVersion(version('a'.repeat(64)))).record.version).toBe(3);
      expect(await opened.store.currentVersions()).toEqual([{ ...version('a'.repeat(64)), version: 3 }]);
    });

    it('lets one refresh claim at a time, taken over once its lease lapsed', async () => {
      const now = new Date('2026-11-26T06:00:00.000Z');
      const later = new Date(now.getTime() + 60_000);
      expect(await opened.store.claimRefresh('server-a', now, later)).toBe(true);
      expect(await opened.store.claimRefresh('server-b', now, later)).toBe(false);
      expect(await opened.store.claimRefresh('server-b', later, new Date(later.getTime() + 60_000))).toBe(
        true,
      );
      await opened.store.releaseRefresh('server-a', later);
      expect(await opened.store.claimRefresh('server-a', later, later)).toBe(false);
      await opened.store.releaseRefresh('server-b', later);
      expect(await opened.store.lastRefresh()).toEqual(later);
      expect(await opened.store.claimRefresh('server-a', later, later)).toBe(true);
    });
  });
}
