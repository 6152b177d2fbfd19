import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { API_VERSION } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = new URL('../../', import.meta.url).pathname;
const DECLARATION = 'packages/domain/src/meta/api-version.ts';

/** What this test reads of a package.json. */
const Manifest = z.object({
  version: z.string(),
  private: z.boolean().optional(),
  workspaces: z.array(z.string()).optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  devDependencies: z.record(z.string(), z.string()).optional(),
  peerDependencies: z.record(z.string(), z.string()).optional(),
});
type Manifest = z.infer<typeof Manifest>;

const manifestOf = (dir: string): Manifest =>
  Manifest.parse(JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')));

/** The root and every workspace directory, `dir/*` patterns expanded. */
function workspaceDirs(): string[] {
  const patterns = manifestOf('.').workspaces ?? [];
  return [
    '.',
    ...patterns.flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(ROOT, pattern.slice(0, -2)), { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
            .filter((dir) => existsSync(join(ROOT, dir, 'package.json')))
        : [pattern],
    ),
  ];
}

/** Source and documentation files, without installed, built or generated trees. */
function sourceFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'build', '.git', '.svc-data'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|md)$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

/**
 * One source for the version number: the API version is declared once; the packages are released at it and
 * CHANGELOG.md has its section (`npm run set-version -- X.Y.Z` writes the rest).
 */
describe('the API version', () => {
  it.each(workspaceDirs().filter((dir) => dir === '.' || manifestOf(dir).private !== true))(
    'is the version of the package in %s',
    (dir) => {
      expect(manifestOf(dir).version).toBe(API_VERSION);
    },
  );

  it.each(workspaceDirs())('is what %s requires of the @svc packages', (dir) => {
    const manifest = manifestOf(dir);
    const ranges = Object.entries({
      ...manifest.dependencies,
      ...manifest.devDependencies,
      ...manifest.peerDependencies,
    }).filter(([name]) => name.startsWith('@svc/'));
    for (const [name, range] of ranges) expect(range, name).toBe(`^${API_VERSION}`);
  });

  it('has its section in CHANGELOG.md', () => {
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toContain(`\n## ${API_VERSION}`);
  });

  it(`is written in no source or document but ${DECLARATION} and CHANGELOG.md`, () => {
    const literal = new RegExp(`(?<![\\d.])${API_VERSION.replaceAll('.', '\\.')}(?![\\d.])`);
    const writers = sourceFiles().filter(
      (path) =>
        path !== DECLARATION &&
        path !== 'CHANGELOG.md' &&
        literal.test(readFileSync(join(ROOT, path), 'utf8')),
    );
    expect(writers).toEqual([]);
  });
});
