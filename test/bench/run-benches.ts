import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bench-processes.js';

/**
 * `npm run bench [-- --only NAME[,NAME]] [-- --large] [-- --long]` (`--mix` for `--only mix`): runs each
 * benchmark in a process of its own, one after the other (so that none measures another's load), passing the
 * other arguments through. Each prints its figures next to its targets.
 */
const BENCHES = ['meta', 'profiles', 'simulate', 'query-log', 'relay', 'dns', 'exports', 'mix'];

// `--mix` is short for `--only mix` (issue 10 names it so).
const given = process.argv.slice(2);
const args = given.includes('--mix') ? [...given.filter((arg) => arg !== '--mix'), '--only', 'mix'] : given;
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : undefined;
const passed = onlyAt >= 0 ? args.filter((_, index) => index !== onlyAt && index !== onlyAt + 1) : args;

function run(file: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file, ...passed], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

let failed = 0;
for (const name of BENCHES) {
  if (only !== undefined && !only.includes(name)) continue;
  const file = join(ROOT, 'test/bench', `${name}.bench.ts`);
  // A benchmark whose capability has not landed yet has no file: nothing to measure.
  if (!existsSync(file)) continue;
  process.stdout.write(`\n== ${name} ==\n`);
  if ((await run(file)) !== 0) failed += 1;
}
process.exitCode = failed > 0 ? 1 : 0;
