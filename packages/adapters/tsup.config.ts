import { cp } from 'node:fs/promises';
import { defineConfig } from 'tsup';

export default defineConfig({
  // The embedded store's migration child has its own entry: it loads that store's module, not every adapter.
  entry: {
    index: 'src/index.ts',
    'embedded-migration-child': 'src/clickhouse/embedded-migration-child.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  // The migrations (plain SQL) and the PGlite data-dir template are read at run time next to the module:
  // copy them beside the bundle.
  onSuccess: async () => {
    await cp('src/postgres/pglite-template', 'dist/pglite-template', { recursive: true });
    await cp('src/postgres/postgres-migrations', 'dist/postgres-migrations', { recursive: true });
    await cp('src/clickhouse/clickhouse-migrations', 'dist/clickhouse-migrations', { recursive: true });
  },
});
