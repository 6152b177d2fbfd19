import type { OperatorBlockRecord, OperatorFileName, SourceBlockRecord } from './operator.ports.js';

/** Bus subject announcing a new version of an operator file (spec 3, 6.3). */
export const OPERATOR_CHANGED_SUBJECT = 'operator.changed';

/**
 * The operator blocks file: what every edge in scope answers NXDOMAIN with EDE 15. Notes are internal and never
 * published; the creator is not the edge's business either.
 */
export function operatorBlocksDocument(
  version: number,
  blocks: readonly OperatorBlockRecord[],
  at: Date,
): Record<string, unknown> {
  return {
    kind: 'operator_blocks',
    version,
    published_at: at.toISOString(),
    blocks: blocks.map((block) => ({
      id: block.id,
      pattern: block.pattern,
      reason_code: block.reasonCode,
      public_ref: block.publicRef,
      pops: block.pops,
      jurisdictions: block.jurisdictions,
      expires_at: block.expiresAt?.toISOString() ?? null,
    })),
  };
}

/** The operator sources file: prefixes whose queries the edges in scope refuse. */
export function operatorSourcesDocument(
  version: number,
  sources: readonly SourceBlockRecord[],
  at: Date,
): Record<string, unknown> {
  return {
    kind: 'operator_sources',
    version,
    published_at: at.toISOString(),
    sources: sources.map((source) => ({
      id: source.id,
      cidr: source.cidr,
      pops: source.pops,
      jurisdictions: source.jurisdictions,
      expires_at: source.expiresAt.toISOString(),
    })),
  };
}

/** The `operator.changed` announcement: which file, its new version, and the file itself. */
export function operatorChanged(
  file: OperatorFileName,
  version: number,
  document: Record<string, unknown>,
): { file: OperatorFileName; version: number; document: Record<string, unknown> } {
  return { file, version, document };
}
