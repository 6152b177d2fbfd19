import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { nodeProfileDocument } from '@svc/testing/node-profile-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListArtifactError, type ManifestArtifact, NodeFilter } from '../src/index.js';

const TOKEN = 'svcnode_test';
const artifact = (names: string[]) => Buffer.from(`svc-list 1\n${names.map((name) => `${name}\n`).join('')}`);
const ADS = artifact(['ads.example', '=tracker.example']);
const OTHER = artifact(['other.example']);
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A node profile document with this manifest and deny rules. */
const documentWith = (artifacts: ManifestArtifact[], deny: string[] = []) =>
  nodeProfileDocument({ artifacts, rules: { deny } });

const operatorBlocks = (version: number, patterns: string[]) => ({
  file: 'operator_blocks' as const,
  version,
  document: {
    kind: 'operator_blocks',
    version,
    published_at: null,
    blocks: patterns.map((pattern, index) => ({
      id: `b${index}`,
      pattern,
      reason_code: 'legal_order',
      public_ref: `Order ${version}`,
      pops: [],
      jurisdictions: [],
      expires_at: null,
    })),
  },
});

describe(NodeFilter.name, () => {
  let server: Server;
  let base: string;
  /** What the server answers for a digest (bytes it serves under that address, gzip or not). */
  const served = new Map<string, Buffer>();
  const downloads: string[] = [];
  const directories: string[] = [];

  const manifestEntry = (listId: number, bytes: Buffer, address = digest(bytes)): ManifestArtifact => ({
    list_id: listId,
    kind: 'list',
    name: `List ${listId}`,
    version: 1,
    sha256: address,
    size: bytes.length,
    url: `${base}/v1/nodes/self/lists/${address}`,
  });
  const newFilter = async () => {
    const directory = await mkdtemp(join(tmpdir(), 'node-filter-'));
    directories.push(directory);
    return { directory, filter: new NodeFilter({ directory, token: () => TOKEN, downloadTimeoutMs: 5_000 }) };
  };
  const decided = (filter: NodeFilter, name: string) => {
    const decision = filter.decide({ name });
    return [decision.reason, decision.listId];
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const address = request.url?.split('/').pop() ?? '';
      downloads.push(address);
      const bytes = served.get(address);
      if (request.headers.authorization !== `Bearer ${TOKEN}` || bytes === undefined) {
        response.writeHead(404).end();
        return;
      }
      // Gzip when asked, as the API answers.
      if (String(request.headers['accept-encoding']).includes('gzip'))
        response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(bytes));
      else response.writeHead(200).end(bytes);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
    served.set(digest(ADS), ADS);
    served.set(digest(OTHER), OTHER);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
  });

  it('decides a paused document’s listed names as paused until paused_until, then by its lists again, also after a restart', async () => {
    const end = Date.parse('2026-11-28T12:00:00.000Z');
    const { directory, filter } = await newFilter();
    await filter.applyProfile({
      ...documentWith([manifestEntry(4, ADS)]),
      paused_until: new Date(end).toISOString(),
    });
    const at = (name: string, time: number) => filter.decide({ name, at: time }).reason;
    expect(at('www.ads.example', end - 1)).toBe('paused');
    expect(at('www.ads.example', end)).toBe('list');
    const restarted = new NodeFilter({ directory, token: () => TOKEN });
    expect(await restarted.loadLastGood()).toBe(true);
    expect(restarted.decide({ name: 'www.ads.example', at: end - 60_000 }).reason).toBe('paused');
    expect(restarted.decide({ name: 'www.ads.example', at: end + 60_000 }).reason).toBe('list');
  });

  it('downloads and verifies the manifest’s lists, decides with them, and decides the same offline after a restart', async () => {
    const { directory, filter } = await newFilter();
    await filter.applyProfile(documentWith([manifestEntry(4, ADS)]));
    expect(decided(filter, 'www.ads.example')).toEqual(['list', 4]);
    expect(decided(filter, 'www.tracker.example')).toEqual(['none', null]);
    expect(await readdir(join(directory, 'lists'))).toEqual(
      expect.arrayContaining([`${digest(ADS)}.list`, 'manifest.json']),
    );

    // Restarted without the API: the last good set from disk, nothing downloaded.
    const before = downloads.length;
    const restarted = new NodeFilter({ directory, token: () => TOKEN });
    expect(await restarted.loadLastGood()).toBe(true);
    expect(decided(restarted, 'www.ads.example')).toEqual(['list', 4]);
    expect(downloads.length).toBe(before);
  });

  it('starts from no last good state when the kept document is not a profile document, and keeps fields it does not know', async () => {
    const { directory, filter } = await newFilter();
    await filter.applyProfile(documentWith([], ['denied.example']));
    const kept = JSON.parse(await readFile(join(directory, 'profile.json'), 'utf8'));

    // A newer server's field survives the restart, as the document verified with it.
    await writeFile(join(directory, 'profile.json'), JSON.stringify({ ...kept, schedule: { days: [1] } }));
    const restarted = new NodeFilter({ directory, token: () => TOKEN });
    expect(await restarted.loadLastGood()).toBe(true);
    expect(restarted.profile).toMatchObject({ id: kept.id, schedule: { days: [1] } });
    expect(decided(restarted, 'denied.example')).toEqual(['deny_rule', null]);

    // A damaged document (its rules lost) is no state to decide with.
    const { rules: _rules, ...damaged } = kept;
    await writeFile(join(directory, 'profile.json'), JSON.stringify(damaged));
    const damagedStart = new NodeFilter({ directory, token: () => TOKEN });
    expect(await damagedStart.loadLastGood()).toBe(false);
    expect(damagedStart.profile).toBeNull();
  });

  it('refuses an artifact that does not match its digest and keeps the lists in force, applying the new rules', async () => {
    const { directory, filter } = await newFilter();
    await filter.applyProfile(documentWith([manifestEntry(4, ADS)]));
    // The server answers other bytes of the same size under an address they do not hash to.
    const forged = Buffer.from(OTHER.toString().padEnd(ADS.length, '#'));
    const address = digest(Buffer.from('something else'));
    served.set(address, forged);
    const tampered = documentWith([manifestEntry(5, forged, address)], ['denied.example']);
    await expect(filter.applyProfile(tampered)).rejects.toBeInstanceOf(ListArtifactError);
    expect(decided(filter, 'www.ads.example')).toEqual(['list', 4]);
    expect(decided(filter, 'other.example')).toEqual(['none', null]);
    expect(decided(filter, 'denied.example')).toEqual(['deny_rule', null]);
    // Nothing of the forged download stays on disk.
    expect((await readdir(join(directory, 'lists'))).filter((name) => name.includes(address))).toEqual([]);
  });

  it('swaps to a new manifest whole, and removes the artifacts no manifest needs', async () => {
    const { directory, filter } = await newFilter();
    await filter.applyProfile(documentWith([manifestEntry(4, ADS)]));
    await filter.applyProfile(documentWith([manifestEntry(6, OTHER)]));
    expect(decided(filter, 'ads.example')).toEqual(['none', null]);
    expect(decided(filter, 'other.example')).toEqual(['list', 6]);
    expect((await readdir(join(directory, 'lists'))).sort()).toEqual([
      `${digest(OTHER)}.list`,
      'manifest.json',
    ]);
  });

  it('applies operator files in version order: an older one changes nothing, the newer stays on disk', async () => {
    const { directory, filter } = await newFilter();
    await filter.applyProfile(documentWith([]));
    // Back to back, as the welcome's file and a change's arrive.
    await Promise.all([
      filter.applyOperatorFile(operatorBlocks(1, ['court-1.example'])),
      filter.applyOperatorFile(operatorBlocks(2, ['court-2.example'])),
    ]);
    await filter.applyOperatorFile(operatorBlocks(1, ['court-1.example']));
    expect(filter.operatorVersions.operator_blocks).toBe(2);
    expect(filter.decide({ name: 'court-2.example' })).toMatchObject({ reason: 'operator_block', ede: 15 });
    expect(filter.decide({ name: 'court-1.example' }).reason).toBe('none');
    const kept = JSON.parse(await readFile(join(directory, 'operator-blocks.json'), 'utf8')) as {
      version: number;
    };
    expect(kept.version).toBe(2);
  });
});
