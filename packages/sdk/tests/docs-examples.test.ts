import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DOCS = new URL('../docs/', import.meta.url);

/** Code with indentation and blank lines dropped, so a quoted function body matches its source. */
function normalised(code: string): string {
  return code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md'));

describe('SDK resource pages (docs/*.md)', () => {
  it('has one page per resource group', () => {
    expect(pages.sort()).toEqual([
      'admin.md',
      'auth-and-tokens.md',
      'devices.md',
      'linked-ips.md',
      'live-stream.md',
      'logs-and-analytics.md',
      'nodes.md',
      'profiles.md',
      'rules-and-lists.md',
    ]);
  });

  it.each(pages)('%s quotes only code of its type-checked examples file', (page) => {
    const text = readFileSync(new URL(page, DOCS), 'utf8');
    const examples = normalised(
      readFileSync(new URL(`examples/${page.replace(/\.md$/, '.examples.ts')}`, DOCS), 'utf8'),
    );
    const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(examples).toContain(normalised(block));
  });
});
