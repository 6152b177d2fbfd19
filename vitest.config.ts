import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/tests/**/*.test.ts', 'test/**/*.test.ts', 'examples/*/tests/**/*.test.ts'],
        },
      },
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
    ],
  },
});
