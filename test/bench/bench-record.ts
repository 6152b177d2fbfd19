import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

/** The machine a benchmark ran on, as its results file states it. */
export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
}

export function currentMachine(): Machine {
  const cores = cpus();
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${process.platform} ${release()}`,
    node: process.version,
  };
}

/** The 1, 5 and 15 minute load averages, as printed. */
export function currentLoad(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
}

/** One benchmark's run, as `run-benches.ts` saw it. */
export interface BenchRun {
  bench: string;
  /** The command that ran it, as a user would type it. */
  command: string;
  startedAt: Date;
  finishedAt: Date;
  machine: Machine;
  loadBefore: string;
  loadAfter: string;
  exitCode: number;
  /** Everything the bench printed on stdout. */
  output: string;
}

/** The Markdown results file of `run`. */
function resultsMarkdown(run: BenchRun): string {
  const { machine } = run;
  const seconds = Math.round((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000);
  const output = run.output.replaceAll('```', '` ` `').trimEnd();
  return [
    `# ${run.bench} benchmark, ${run.startedAt.toISOString().slice(0, 10)}`,
    '',
    `- Command: \`${run.command}\``,
    `- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}`,
    `- Load average (1, 5, 15 min): ${run.loadBefore} before, ${run.loadAfter} after`,
    `- Ran: ${run.startedAt.toISOString()}, ${seconds} s, exit code ${run.exitCode}`,
    '',
    '## Output',
    '',
    '```text',
    output,
    '```',
    '',
  ].join('\n');
}

/**
 * Writes `run` to `<dir>/<date>-<bench>.md`, or `…-2.md`, `…-3.md` when the day already has results of that
 * bench; returns the path written.
 */
export function writeResults(dir: string, run: BenchRun): string {
  mkdirSync(dir, { recursive: true });
  const stem = `${run.startedAt.toISOString().slice(0, 10)}-${run.bench}`;
  let path = join(dir, `${stem}.md`);
  for (let n = 2; existsSync(path); n += 1) path = join(dir, `${stem}-${n}.md`);
  writeFileSync(path, resultsMarkdown(run));
  return path;
}
