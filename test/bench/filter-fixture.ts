import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ListCompiler } from '@svc/domain';
import type { ManifestArtifact, NodeFilter } from '@svc/node-agent-kit';

/**
 * Compiles `names` (a plain domain list) into one list artifact and puts it where the kit's list cache keeps
 * artifacts (`<filter directory>/lists`), so that a {@link NodeFilter} applies a manifest naming it without a
 * download: the benches measure deciding, not the API.
 */
export async function seededListManifest(
  filterDirectory: string,
  names: readonly string[],
  listId = 1,
): Promise<ManifestArtifact[]> {
  const compiler = new ListCompiler('domains');
  const batch = 10_000;
  for (let start = 0; start < names.length; start += batch)
    compiler.pushText(`${names.slice(start, start + batch).join('\n')}\n`);
  return placedArtifact(filterDirectory, Buffer.concat([...compiler.finish().chunks()]), listId);
}

/** Puts an artifact's bytes where the kit's list cache keeps them; the manifest naming it. */
export async function placedArtifact(
  filterDirectory: string,
  bytes: Buffer,
  listId = 1,
): Promise<ManifestArtifact[]> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const lists = join(filterDirectory, 'lists');
  await mkdir(lists, { recursive: true });
  await writeFile(join(lists, `${sha256}.list`), bytes);
  return [
    {
      list_id: listId,
      kind: 'list',
      name: 'bench list',
      version: 1,
      sha256,
      size: bytes.length,
      url: 'http://127.0.0.1:9/never-downloaded',
    },
  ];
}
