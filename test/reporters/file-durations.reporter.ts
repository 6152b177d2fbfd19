import { relative } from 'node:path';
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** One test file's share of the run: import and collection, then its tests and hooks. */
interface FileTime {
  path: string;
  project: string;
  seconds: number;
  state: string;
}

/** A failure as CI's output should end with it: where, and the first lines of what went wrong. */
interface Failure {
  where: string;
  message: string;
}

const seconds = (milliseconds: number): number => milliseconds / 1000;
const MESSAGE_LINES = 12;

const firstLines = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !line.includes('node_modules'))
    .slice(0, MESSAGE_LINES)
    .map((line) => `      ${line}`)
    .join('\n');

/**
 * Prints every test file's time after the run, slowest first, so that CI's output shows which file grew when the
 * suite slows down (issue 37). The time is the file's import and collection plus its tests and hooks, as its
 * worker spent them; files of a project run two at a time, so the sum is more than the wall-clock time.
 *
 * The failures are printed again after the times: CI keeps only the end of a long output, and the default
 * reporter's account of a failure comes before this list.
 */
export default class FileDurationsReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
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
    const failures = [
      ...testModules.flatMap((module) => this.failuresOf(module)),
      ...unhandledErrors.map((error) => ({
        where: 'unhandled error',
        message: error.stack ?? error.message,
      })),
    ];
    if (failures.length > 0) {
      const described = failures.map((failure) => `  ✗ ${failure.where}\n${firstLines(failure.message)}`);
      process.stdout.write(`\nFailures (${failures.length}):\n${described.join('\n')}\n`);
    }
  }

  private failuresOf(module: TestModule): Failure[] {
    const path = relative(this.root, module.moduleId);
    const ofModule = module.errors().map((error) => ({
      where: `${path} (while loading or in a hook)`,
      message: error.stack ?? error.message,
    }));
    const ofTests: Failure[] = [];
    for (const test of module.children.allTests('failed')) {
      for (const error of test.result().errors ?? []) {
        ofTests.push({ where: `${path} › ${test.fullName}`, message: error.stack ?? error.message });
      }
    }
    return [...ofModule, ...ofTests];
  }
}
