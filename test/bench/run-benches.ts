import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bench-processes.js';
import { currentLoad, currentMachine, writeResults } from './bench-record.js';

/**
 * `npm run bench [-- --only NAME[,NAME]] [-- --large] [-- --long] [-- --no-record]` (`--mix` for
 * `--only mix`): runs each benchmark in a process of its own, one after the other (so that none measures
 * another's load), passing the other arguments through. Each prints its figures next to its targets; what it
 * printed is written with the machine and load to `docs/benchmarks/<date>-<bench>.md` unless `--no-record`.
 */
const BENCHES = [
  'meta',
  'profiles',
  'simulate',
  'query-log',
  'relay',
  'dns',
  'filtering',
  'exports',
  'mix',
  'cluster',
  'dashboard',
  'dashboard-pages',
];

// `--mix` is short for `--only mix` (issue 10 names it so).
const given = process.argv.slice(2).filter((arg) => arg !== '--no-record');
const record = !process.argv.includes('--no-record');
const RESULTS_DIR = join(ROOT, 'docs/benchmarks');
const args = given.includes('--mix') ? [...given.filter((arg) => arg !== '--mix'), '--only', 'mix'] : given;
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : undefined;
const passed = onlyAt >= 0 ? args.filter((_, index) => index !== onlyAt && index !== onlyAt + 1) : args;

/** Runs one bench file, echoing its output as it comes; resolves with its exit code and what it printed. */
function run(file: string): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file, ...passed], {
      cwd: ROOT,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.once('close', (code) =>
      resolve({ exitCode: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

let failed = 0;
for (const name of BENCHES) {
  if (only !== undefined && !only.includes(name)) continue;
  const file = join(ROOT, 'test/bench', `${name}.bench.ts`);
  // A benchmark whose capability has not landed yet has no file: nothing to measure.
  if (!existsSync(file)) continue;
  process.stdout.write(`\n== ${name} ==\n`);
  const startedAt = new Date();
  const loadBefore = currentLoad();
  const { exitCode, output } = await run(file);
  if (exitCode !== 0) failed += 1;
  if (record) {
    const path = writeResults(RESULTS_DIR, {
      bench: name,
      command: ['npm run bench --', '--only', name, ...passed].join(' '),
      startedAt,
      finishedAt: new Date(),
      machine: currentMachine(),
      loadBefore,
      loadAfter: currentLoad(),
      exitCode,
      output,
    });
    process.stdout.write(`results written to ${path}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
