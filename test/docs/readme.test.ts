import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingsReference } from '@svc/http-server';
import { describe, expect, it } from 'vitest';
import { sectionText } from './readme-sections.js';
import { README_SECTIONS } from './write-docs.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README is a user manual; its size is a budget, not a target. */
const README_MAX_BYTES = 25_600;

/** Markdown files a user or contributor reads as project documentation. */
function projectDocuments(): string[] {
  const inDir = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? inDir(join(dir, entry.name))
        : entry.name.endsWith('.md')
          ? [join(dir, entry.name)]
          : [],
    );
  return ['README.md', 'CHANGELOG.md', 'test/bench/README.md', ...inDir('docs')];
}

/** Words of a lab notebook: who worked when, in which sitting. Dated results say enough. */
const NARRATION =
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(st|nd|rd|th)|this|that|last|previous|next|same|earlier|later) (working )?session\b|\bsession \d+\b/i;

describe('README', () => {
  it(`stays a user manual of at most ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(README, 'utf8')).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it.each(README_SECTIONS.map((section) => [section.name, section] as const))(
    'carries the %s section as `npm run docs` generates it from its source',
    (_name, section) => {
      expect(sectionText(README, section), 'run `npm run docs` and commit README.md').toBe(section.render());
    },
  );

  it.each(settingsReference().map((setting) => [setting.name, setting] as const))(
    'documents %s in one line of its configuration table (details go to docs/operations.md)',
    (name, setting) => {
      expect(README).toContain(`\`${name}\``);
      expect(setting.description.length).toBeGreaterThan(0);
      // Every column of a Markdown table is as wide as its widest cell: one long cell widens every row.
      expect(setting.description.length).toBeLessThanOrEqual(160);
      expect(setting.defaultText.length).toBeLessThanOrEqual(60);
    },
  );
});

describe('project documentation', () => {
  it.each(projectDocuments())('%s narrates no working sessions', (path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    expect(text.match(NARRATION)?.[0]).toBeUndefined();
  });

  it('recognises narration (the check itself works)', () => {
    expect('measured in the twelfth session on a faster machine').toMatch(NARRATION);
    expect('figures of this session').toMatch(NARRATION);
    expect('the session cookie is Secure outside development').not.toMatch(NARRATION);
  });
});
