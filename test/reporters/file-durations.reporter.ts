import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** One test file's share of the run: import and collection, then its tests and hooks. */
interface FileTime {
  path: string;
  project: string;
  seconds: number;
  state: string;
}

const seconds = (milliseconds: number): number => milliseconds / 1000;

/**
 * Prints every test file's time after the run, slowest first, so that CI's output shows which file grew when the
 * suite slows down (issue 37). The time is the file's import and collection plus its tests and hooks, as its
 * worker spent them; files of a project run two at a time, so the sum is more than the wall-clock time.
 */
export default class FileDurationsReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const times: FileTime[] = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        path: relative(this.root, module.moduleId),
        project: module.project.name,
        seconds: seconds(diagnostic.collectDuration + diagnostic.duration),
        state: module.state(),
      };
    });
    if (times.length === 0) return;
    times.sort((a, b) => b.seconds - a.seconds);
    const total = times.reduce((sum, time) => sum + time.seconds, 0);
    const lines = times.map(
      (time) =>
        `${time.seconds.toFixed(1).padStart(7)} s  ${time.project.padEnd(9)} ${time.path}${time.state === 'failed' ? '  (failed)' : ''}`,
    );
    process.stdout.write(
      `\nTest files by time, slowest first (${times.length} files, ${total.toFixed(0)} s in workers):\n${lines.join('\n')}\n`,
    );
  }
}
