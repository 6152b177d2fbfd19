import { defineConfig } from 'vitest/config';

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
        test: {
          name: 'dashboard',
          include: ['packages/dashboard/src/**/*.test.tsx'],
          environment: './packages/dashboard/src/testing/jsdom-environment.ts',
          setupFiles: ['packages/dashboard/src/testing/setup.ts'],
        },
      },
    ],
  },
});
