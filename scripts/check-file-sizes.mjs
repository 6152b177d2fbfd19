// `npm run lint` (lint:sizes): no source file over 400 lines unless it says why (ADR 0039). A longer file's
// first comment block carries a line starting with `Longer than 400 lines because` and the reason. Tests,
// benches and generated files are not checked: a test file's length follows from what it covers, and
// what a generator writes is reviewed in the generator.
//
// `node scripts/check-file-sizes.mjs [folder]` checks the folder (default: the repository); exits 1 and names
// each file over the limit without a reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 400;
const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Tests and test helpers: `tests/` anywhere, the repository's `test/`, and test-named files. */
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$|\.(?:suite|contract)\.ts$/;
/** Built, installed or generated: never read. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  'build',
  'generated',
  'coverage',
  '.git',
  '.svc-data',
]);
const GENERATED_FILE = /\.d\.[cm]?ts$|\.gen\.[cm]?[jt]sx?$/;
const REASON = /^Longer than 400 lines because \S/;

/**
 * Temporary, being split: files another branch is splitting, checked again once that split is merged (then
 * this list must lose their lines: a listed file back under the limit fails the check). Only for the
 * repository itself.
 */
const BEING_SPLIT = [];

/** The source files under `folder`, as paths relative to `root` with `/` separators. */
function sourceFiles(root, folder = root) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    const name = relative(root, path).split(sep).join('/');
    if (entry.isDirectory()) {
      if (SKIPPED_FOLDERS.has(entry.name) || entry.name === 'tests' || name === 'test') return [];
      return sourceFiles(root, path);
    }
    if (!entry.isFile() || !SOURCE.test(entry.name)) return [];
    if (TEST_FILE.test(entry.name) || GENERATED_FILE.test(entry.name)) return [];
    return [name];
  });
}

/** Lines as `wc -l` counts them, plus an unterminated last one. */
function lineCount(text) {
  if (text.length === 0) return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** The text lines of the file's first comment block (consecutive `//` lines, or one `/* … *\/`). */
function firstCommentBlock(lines) {
  const start = lines.findIndex((line) => /^\s*(?:\/\/|\/\*)/.test(line) && !line.startsWith('#!'));
  if (start < 0) return [];
  const block = [];
  if (lines[start].trimStart().startsWith('//')) {
    for (let at = start; at < lines.length && lines[at].trimStart().startsWith('//'); at += 1)
      block.push(lines[at].trimStart().slice(2));
    return block.map((line) => line.trim());
  }
  for (let at = start; at < lines.length; at += 1) {
    block.push(lines[at]);
    if (lines[at].includes('*/')) break;
  }
  return block.map((line) =>
    line
      .replace(/\*\/.*$/, '')
      .replace(/^\s*\/\*+/, '')
      .replace(/^\s*\*/, '')
      .trim(),
  );
}

/** The problems of `root`: files over the limit without a reason, and stale lines of BEING_SPLIT. */
function problemsOf(root, beingSplit) {
  const problems = [];
  const files = sourceFiles(root);
  for (const name of files) {
    const text = readFileSync(join(root, name), 'utf8');
    const lines = lineCount(text);
    if (lines <= MAX_LINES || beingSplit.includes(name)) continue;
    if (firstCommentBlock(text.split('\n')).some((line) => REASON.test(line))) continue;
    problems.push(
      `${name}: ${lines} lines (over ${MAX_LINES}): split it, or start a line of its first comment with ` +
        '"Longer than 400 lines because" and the reason',
    );
  }
  for (const name of beingSplit) {
    const over = files.includes(name) && lineCount(readFileSync(join(root, name), 'utf8')) > MAX_LINES;
    if (!over)
      problems.push(
        `${name}: listed in BEING_SPLIT of scripts/check-file-sizes.mjs but no longer over ${MAX_LINES} lines: remove the line`,
      );
  }
  return problems;
}

const repository = fileURLToPath(new URL('..', import.meta.url));
const root = process.argv[2] ?? repository;
const problems = problemsOf(root, process.argv[2] === undefined ? BEING_SPLIT : []);
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
