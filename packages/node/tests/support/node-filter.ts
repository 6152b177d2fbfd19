import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFilter, type NodeOperatorBlock } from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';
import { FilterInForce } from '../../src/index.js';

/** The kit's filter of a node in a directory of its own, deciding as the reference node does. */
export interface TestFilter {
  filter: NodeFilter;
  profile: FilterInForce;
  /** Applies a profile document (its manifest must name only artifacts already on disk, or none). */
  apply(document: NodeProfileDocument): Promise<void>;
  /** Applies an operator blocks file of these entries. */
  block(blocks: NodeOperatorBlock[]): Promise<void>;
  close(): Promise<void>;
}

export async function testFilter(document: NodeProfileDocument): Promise<TestFilter> {
  const directory = await mkdtemp(join(tmpdir(), 'svc-node-filter-'));
  const filter = new NodeFilter({ directory, token: () => 'svcnode_unused' });
  await filter.applyProfile(document);
  let version = 0;
  return {
    filter,
    profile: new FilterInForce(filter),
    apply: (next) => filter.applyProfile(next),
    block: (blocks) => {
      version += 1;
      return filter.applyOperatorFile({
        file: 'operator_blocks',
        version,
        document: { kind: 'operator_blocks', version, published_at: null, blocks },
      });
    },
    close: () => rm(directory, { recursive: true, force: true }),
  };
}
