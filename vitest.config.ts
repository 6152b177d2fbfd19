import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The suite's files in projects, by what they cost (issue 37), and the dashboard's component tests in jsdom.
 * All run in one group with two workers, so the slow browser, process and storage files run beside the quick
 * ones; vitest queues the projects in the order of their names and, within one, the slowest file first (the
 * largest on a first run), so the long files start early and the quick ones fill the gaps at the end.
 */
const BROWSER = ['test/e2e/dashboard/**/*.test.ts'];
/** Files that start processes: the CLI, private engines, clusters, packed packages, example scripts. */
const PROCESSES = [
  'test/cluster/**/*.test.ts',
  'test/reliability/faults-*.test.ts',
  'test/e2e/cli*.e2e.test.ts',
  'test/e2e/first-ten-minutes.e2e.test.ts',
  'test/e2e/production-start.e2e.test.ts',
  'test/e2e/sdk-package.e2e.test.ts',
  'test/e2e/admin/operator-cli.e2e.test.ts',
  'test/e2e/lists/lists-cli.e2e.test.ts',
  'test/e2e/observability/request-log.e2e.test.ts',
  'test/e2e/query-log/simulate.e2e.test.ts',
  'test/e2e/nodes/*cross-server*.e2e.test.ts',
  'test/lint/*.test.ts',
  'examples/*/tests/**/*.test.ts',
];
/** The same behaviour on the embedded and server engines, and the adapters' contracts on them. */
const STORAGE = [
  'test/**/*.pglite.e2e.test.ts',
  'test/**/*.postgres.e2e.test.ts',
  'test/**/*.clickhouse.e2e.test.ts',
  'packages/adapters/tests/**/*.test.ts',
];
const ALL = ['packages/*/tests/**/*.test.ts', 'test/**/*.test.ts', 'examples/*/tests/**/*.test.ts'];

const REACT_ARIA = /^(react-aria|react-stately|@react-aria\/|@react-stately\/|@internationalized\/)/;

/**
 * React Aria's packages name TypeScript sources under the `source` condition that they do not ship: resolved
 * without it (Node's own conditions), they load their built modules, as the dashboard's build does.
 */
function reactAriaBuiltModules(): Plugin {
  return {
    name: 'react-aria-built-modules',
    enforce: 'pre',
    resolveId(source) {
      return REACT_ARIA.test(source) ? fileURLToPath(import.meta.resolve(source)) : null;
    },
  };
}

function project(name: string, include: string[], exclude: string[] = []): TestProjectInlineConfiguration {
  return { extends: true, test: { name, include, exclude: ['**/node_modules/**', ...exclude] } };
}

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at a time even on two cores: most of a slow file's time is spent waiting on a server, an engine or
    // a browser, not on the CPU.
    maxWorkers: 2,
    reporters: ['default', './test/reporters/file-durations.reporter.ts'],
    projects: [
      project('browser', BROWSER),
      {
        // The dashboard's component tests, beside their components: React in jsdom, against the API in the
        // test's own process (packages/dashboard/src/testing/).
        extends: true,
        plugins: [reactAriaBuiltModules()],
        test: {
          name: 'dashboard',
          include: ['packages/dashboard/src/**/*.test.tsx'],
          environment: './packages/dashboard/src/testing/jsdom-environment.ts',
          setupFiles: ['packages/dashboard/src/testing/setup.ts'],
          server: { deps: { inline: [/react-aria/, /react-stately/, /@internationalized\//] } },
        },
      },
      project('processes', PROCESSES, BROWSER),
      project('storage', STORAGE, [...BROWSER, ...PROCESSES]),
      project('unit', ALL, [...BROWSER, ...PROCESSES, ...STORAGE]),
    ],
  },
});
