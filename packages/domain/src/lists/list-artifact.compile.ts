import type { ListFormat } from '../catalogue/list-format.js';
import { ListCompiler, type ListCompileStats } from './list-compiler.js';
import {
  CONTENT_SNIFF_BYTES,
  judgeListContent,
  type ListContentRefusal,
  sniffForeignContent,
} from './list-content-check.js';
import type { ListArtifactStore, StoredArtifact } from './list-pipeline.ports.js';

// Compilation into stored artifacts, shared by the fetch of a source, the import of a file and the merge of a
// list's sources: a body is judged before it is stored, so refused content never takes up the store.

/** A body compiled and stored, or the reason it was refused. */
export type CompiledBody =
  | { stored: StoredArtifact; stats: ListCompileStats }
  | { refusal: ListContentRefusal };

/**
 * Compiles a body read as it arrives into a stored artifact, unless it is refused in place of the last good
 * version of `previousEntries` entries (list-content-check.ts): refused content is not stored.
 */
export async function compileListBody(
  artifacts: ListArtifactStore,
  body: AsyncIterable<Uint8Array>,
  format: ListFormat,
  previousEntries: number | null,
  allowShrink: boolean,
): Promise<CompiledBody> {
  const compiler = new ListCompiler(format);
  const decoder = new TextDecoder('utf-8');
  const head = new Uint8Array(CONTENT_SNIFF_BYTES);
  let headLength = 0;
  for await (const chunk of body) {
    if (headLength < CONTENT_SNIFF_BYTES) {
      const taken = chunk.subarray(0, CONTENT_SNIFF_BYTES - headLength);
      head.set(taken, headLength);
      headLength += taken.length;
    }
    compiler.pushText(decoder.decode(chunk, { stream: true }));
  }
  compiler.pushText(decoder.decode());
  const compiled = compiler.finish();
  const refusal = judgeListContent({
    foreign: sniffForeignContent(head.subarray(0, headLength)),
    entries: compiled.stats.entries,
    previousEntries,
    allowShrink,
  });
  if (refusal !== null) return { refusal };
  return { stored: await artifacts.put(compiled.chunks()), stats: compiled.stats };
}

/** An artifact merged from stored ones and extra domains (each blocking its subtree), stored in turn. */
export async function mergeArtifacts(
  artifacts: ListArtifactStore,
  parts: readonly { sha256: string; of: string }[],
  domains: readonly string[] = [],
): Promise<{ stored: StoredArtifact; stats: ListCompileStats }> {
  const merged = new ListCompiler('domains');
  for (const part of parts) {
    const bytes = await artifacts.read(part.sha256);
    if (bytes === null) throw new Error(`the artifact ${part.sha256} of ${part.of} is missing`);
    merged.pushArtifact(bytes);
  }
  for (const domain of domains) merged.entry(domain, 'subtree', false);
  const result = merged.finish();
  return { stored: await artifacts.put(result.chunks()), stats: result.stats };
}
