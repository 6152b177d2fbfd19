import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The size check of `npm run lint` (ADR 0039), run as lint runs it, on a folder laid out for each case.

const SCRIPT = fileURLToPath(new URL('../../scripts/check-file-sizes.mjs', import.meta.url));

/** A source of `lines` lines, with `head` as its first lines. */
function source(lines: number, head: string[] = []): string {
  const body = Array.from(
    { length: lines - head.length },
    (_unused, index) => `export const v${index} = ${index};`,
  );
  return `${[...head, ...body].join('\n')}\n`;
}

describe('scripts/check-file-sizes.mjs', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'file-sizes-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  function put(path: string, text: string): void {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }

  function check(): { status: number | null; stderr: string } {
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    return { status: run.status, stderr: run.stderr };
  }

  it('passes sources of at most 400 lines, and an empty folder', () => {
    expect(check()).toEqual({ status: 0, stderr: '' });
    put('packages/a/src/exactly.ts', source(400));
    put('packages/a/src/no-final-newline.ts', source(400).trimEnd());
    expect(check()).toEqual({ status: 0, stderr: '' });
  });

  it('fails on each source over 400 lines without a reason, naming it and its length', () => {
    put('packages/a/src/long.ts', source(401));
    put('packages/a/src/page.tsx', source(450));
    put('scripts/tool.mjs', source(402));
    put('packages/a/src/short.ts', source(12));
    const { status, stderr } = check();
    expect(status).toBe(1);
    const named = stderr
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]);
    expect(named.sort()).toEqual(['packages/a/src/long.ts', 'packages/a/src/page.tsx', 'scripts/tool.mjs']);
    expect(stderr).toContain('packages/a/src/long.ts: 401 lines');
    expect(stderr).toContain('Longer than 400 lines because');
  });

  it('passes a long source whose first comment block gives the reason, in either comment form', () => {
    put(
      'packages/a/src/line-comments.ts',
      source(500, [
        "import { x } from './x.js';",
        '',
        '// The parser of the format.',
        '//',
        '// Longer than 400 lines because the grammar is one table.',
      ]),
    );
    put(
      'packages/a/src/block-comment.ts',
      source(500, [
        '/**',
        ' * The decision table.',
        ' * Longer than 400 lines because each row is a case of spec 4.2.',
        ' */',
      ]),
    );
    put(
      'packages/a/src/one-line-block.ts',
      source(500, ['/* Longer than 400 lines because it is a table. */']),
    );
    expect(check()).toEqual({ status: 0, stderr: '' });
  });

  it('fails a reason that is not in the first comment block, is empty, or only mentions the phrase', () => {
    put(
      'packages/a/src/second-block.ts',
      source(500, ['// What this file is.', '', '// Longer than 400 lines because it grew.']),
    );
    put('packages/a/src/empty-reason.ts', source(500, ['// Longer than 400 lines because']));
    put(
      'packages/a/src/not-at-start.ts',
      source(500, ['// It is not Longer than 400 lines because of tables.']),
    );
    put(
      'packages/a/src/in-code.ts',
      source(500, ["const note = '// Longer than 400 lines because strings';"]),
    );
    const { status, stderr } = check();
    expect(status).toBe(1);
    const named = stderr
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]);
    expect(named.sort()).toEqual([
      'packages/a/src/empty-reason.ts',
      'packages/a/src/in-code.ts',
      'packages/a/src/not-at-start.ts',
      'packages/a/src/second-block.ts',
    ]);
  });

  it('does not check tests, test helpers, built, installed or generated files, nor other file types', () => {
    for (const path of [
      'packages/a/tests/long.test.ts',
      'packages/a/tests/support/harness.ts',
      'test/e2e/long.e2e.test.ts',
      'test/bench/mix.bench.ts',
      'packages/a/src/page.test.tsx',
      'packages/a/src/store.contract.ts',
      'packages/a/src/flows.suite.ts',
      'packages/a/dist/index.js',
      'packages/a/build/types/index.d.ts',
      'node_modules/dep/index.js',
      'packages/a/node_modules/dep/index.cjs',
      'packages/a/src/generated/client.ts',
      'packages/a/src/types.d.ts',
      'packages/a/src/routes.gen.ts',
      'docs/reference.md',
      'packages/a/src/data.json',
    ])
      put(path, source(900));
    expect(check()).toEqual({ status: 0, stderr: '' });
  });

  it('checks a source folder named like a test folder below the top', () => {
    put('packages/a/src/test/long.ts', source(401));
    const { status, stderr } = check();
    expect(status).toBe(1);
    expect(stderr).toContain('packages/a/src/test/long.ts: 401 lines');
  });
});
