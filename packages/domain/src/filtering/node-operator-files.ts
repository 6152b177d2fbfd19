import { z } from 'zod';
import { rulePatternParts } from '../rules/rule-pattern.js';
import { compactCanonicalJson } from '../shared/canonical-json.js';
import type { EdgeLocation } from './filtering-context.js';
import { operatorEntryInScope, SELF_HOSTED_LOCATION } from './filtering-context.js';
import { nameKey } from './name-key.js';

/** The operator files nodes receive (spec 3, 4.10). */
export const NODE_OPERATOR_FILES = ['operator_blocks', 'operator_sources'] as const;
export type NodeOperatorFileName = (typeof NODE_OPERATOR_FILES)[number];

/** The first line of a signed operator file: names the format, so no other signed text is taken for one. */
export const OPERATOR_FILE_SIGNATURE_PREFIX = 'svc-operator-v1\n';

const Scope = {
  pops: z.array(z.string()),
  jurisdictions: z.array(z.string()),
};

/**
 * An operator block as a node gets it: the pattern in clear, or, for a `csam` entry, only the 64-bit key of
 * its name (`key`, 16 hex digits: lane A then lane B, as name-key.ts computes them) and its form, so that a
 * node can match the name without ever holding the list of such names.
 */
export const NodeOperatorBlock = z.object({
  id: z.string(),
  pattern: z.string().optional(),
  key: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  form: z.enum(['exact', 'subtree', 'subdomains']).optional(),
  reason_code: z.enum(['legal_order', 'abuse', 'csam']),
  public_ref: z.string(),
  ...Scope,
  expires_at: z.string().nullable(),
});
export type NodeOperatorBlock = z.infer<typeof NodeOperatorBlock>;

/** The operator blocks file as a node gets it. */
export const NodeOperatorBlocksFile = z.object({
  kind: z.literal('operator_blocks'),
  version: z.int().min(0),
  published_at: z.string().nullable(),
  blocks: z.array(NodeOperatorBlock),
});
export type NodeOperatorBlocksFile = z.infer<typeof NodeOperatorBlocksFile>;

/** The operator sources file as a node gets it. */
export const NodeOperatorSourcesFile = z.object({
  kind: z.literal('operator_sources'),
  version: z.int().min(0),
  published_at: z.string().nullable(),
  sources: z.array(
    z.object({ id: z.string(), cidr: z.string(), ...Scope, expires_at: z.string().nullable() }),
  ),
});
export type NodeOperatorSourcesFile = z.infer<typeof NodeOperatorSourcesFile>;

/** The key of a name as {@link NodeOperatorBlock.key} writes it. */
export function operatorNameKey(name: string): string {
  const { a, b } = nameKey(name);
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function scopeOf(entry: Record<string, unknown>) {
  return {
    pops: strings(entry.pops),
    jurisdictions: strings(entry.jurisdictions),
    expires_at: typeof entry.expires_at === 'string' ? entry.expires_at : null,
  };
}

/**
 * An operator file (operator-files.ts) as the nodes at `location` get it: only the entries in scope there
 * (a self-hosted node is the PoP `node` with no jurisdiction), `csam` patterns as name keys. `document` is the
 * published file, or null before the first publication (version 0: an empty file).
 */
export function nodeOperatorFile(
  file: NodeOperatorFileName,
  version: number,
  document: unknown,
  location: EdgeLocation = SELF_HOSTED_LOCATION,
): NodeOperatorBlocksFile | NodeOperatorSourcesFile {
  const published = record(document);
  const publishedAt = typeof published.published_at === 'string' ? published.published_at : null;
  if (file === 'operator_sources') {
    return {
      kind: 'operator_sources',
      version,
      published_at: publishedAt,
      sources: (Array.isArray(published.sources) ? published.sources : [])
        .map(record)
        .map((entry) => ({ id: String(entry.id ?? ''), cidr: String(entry.cidr ?? ''), ...scopeOf(entry) }))
        .filter((entry) => operatorEntryInScope(entry, location)),
    };
  }
  return {
    kind: 'operator_blocks',
    version,
    published_at: publishedAt,
    blocks: (Array.isArray(published.blocks) ? published.blocks : [])
      .map(record)
      .flatMap((entry): NodeOperatorBlock[] => {
        const reason = NodeOperatorBlock.shape.reason_code.safeParse(entry.reason_code);
        if (!reason.success) return [];
        const pattern = String(entry.pattern ?? '');
        const common = {
          id: String(entry.id ?? ''),
          reason_code: reason.data,
          public_ref: String(entry.public_ref ?? ''),
          ...scopeOf(entry),
        };
        if (reason.data !== 'csam') return [{ ...common, pattern }];
        const { form, name } = rulePatternParts(pattern);
        return [{ ...common, key: operatorNameKey(name), form }];
      })
      .filter((entry) => operatorEntryInScope(entry, location)),
  };
}

/** The exact text an operator file's signature covers (its UTF-8 bytes are signed with Ed25519). */
export function operatorFileSignaturePayload(
  file: NodeOperatorFileName,
  version: number,
  document: unknown,
): string {
  return `${OPERATOR_FILE_SIGNATURE_PREFIX}${file}\n${version}\n${compactCanonicalJson(document)}`;
}
