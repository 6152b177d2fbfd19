import { readFileSync, writeFileSync } from 'node:fs';
import { settingsTableMarkdown } from '@svc/http-server';
import { type GeneratedSection, withSection } from './readme-sections.js';

/** The walk-through whose curl script the README carries; a test runs it (test/e2e/first-ten-minutes). */
export const WALK_THROUGH = new URL('../../docs/first-ten-minutes.md', import.meta.url);

/** The one code block of `language` in the walk-through, as a reader copies it. */
export function walkThroughBlock(language: 'sh' | 'js'): string {
  const blocks = [...readFileSync(WALK_THROUGH, 'utf8').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter(
    (match) => match[1] === language,
  );
  if (blocks.length !== 1)
    throw new Error(`docs/first-ten-minutes.md has ${blocks.length} ${language} blocks, not 1`);
  return blocks[0]?.[2] ?? '';
}

/** `npm run docs`: rewrites the README's generated sections from their sources. */
export const README_SECTIONS: GeneratedSection[] = [
  {
    name: 'settings',
    source: 'the settings schema, packages/composition/src/settings/settings.ts',
    render: settingsTableMarkdown,
  },
  {
    name: 'first-ten-minutes',
    source: 'the curl script of docs/first-ten-minutes.md',
    render: () => `\`\`\`sh\n${walkThroughBlock('sh')}\`\`\``,
  },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL('../../README.md', import.meta.url);
  const readme = README_SECTIONS.reduce(withSection, readFileSync(path, 'utf8'));
  writeFileSync(path, readme);
}
