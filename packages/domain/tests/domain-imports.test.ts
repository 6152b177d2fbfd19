import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = new URL('../src/', import.meta.url).pathname;
/** The only packages the domain may import: schemas. Everything else reaches it through ports. */
const ALLOWED_PACKAGES = new Set(['zod']);
/** Node globals that are I/O in disguise. */
const FORBIDDEN_GLOBALS =
  /\b(process\.|require\(|setTimeout\(|setInterval\(|Date\.now\(|new Date\(\)|Math\.random\(|crypto\.)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

function importsOf(text: string): string[] {
  const specifiers = [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return specifiers.map((match) => match[1] ?? match[2] ?? '');
}

describe('domain layer rule', () => {
  const files = sourceFiles(SOURCE);

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((file) => [relative(SOURCE, file), file]))(
    '%s imports only relative modules and zod',
    (_name, file) => {
      const foreign = importsOf(readFileSync(file, 'utf8')).filter(
        (specifier) => !specifier.startsWith('.') && !ALLOWED_PACKAGES.has(specifier.split('/')[0] ?? ''),
      );
      expect(foreign).toEqual([]);
    },
  );

  it.each(files.map((file) => [relative(SOURCE, file), file]))(
    '%s reads no clock, randomness or process state',
    (_name, file) => {
      expect(readFileSync(file, 'utf8')).not.toMatch(FORBIDDEN_GLOBALS);
    },
  );

  it('detects a forbidden import (the check itself works)', () => {
    expect(importsOf("import { Pool } from 'pg';\nexport { x } from './x.js';")).toEqual(['pg', './x.js']);
  });
});
