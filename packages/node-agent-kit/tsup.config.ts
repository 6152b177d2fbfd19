import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: {
    compilerOptions: {
      rootDir: '..',
      paths: { '@svc/domain/filtering': ['../domain/src/filtering/index.ts'] },
    },
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  // The decision function and the list format are bundled from the domain's source, so the built kit needs no
  // server package at run time; zod, which their schemas use, is a dependency.
  noExternal: ['@svc/domain/filtering'],
  esbuildOptions(options) {
    options.conditions = ['source'];
  },
});
