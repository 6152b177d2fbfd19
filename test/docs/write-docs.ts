import { readFileSync, writeFileSync } from 'node:fs';
import { settingsTableMarkdown } from '@svc/http-server';
import { type GeneratedSection, withSection } from './readme-sections.js';

/** `npm run docs`: rewrites the README's generated sections from their sources. */
export const README_SECTIONS: GeneratedSection[] = [
  {
    name: 'settings',
    source: 'the settings schema, packages/http-server/src/settings/settings.ts',
    render: settingsTableMarkdown,
  },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL('../../README.md', import.meta.url);
  const readme = README_SECTIONS.reduce(withSection, readFileSync(path, 'utf8'));
  writeFileSync(path, readme);
}
