import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: {
    compilerOptions: {
      rootDir: '..',
      paths: {
        '@svc/domain/filtering': ['../domain/src/filtering/index.ts'],
        '@svc/domain/profile-documents': ['../domain/src/profile-documents.ts'],
      },
    },
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  // The decision function, the list format and the profile document's schema are bundled from the domain's
  // source, so the built kit needs no server package at run time; zod, which their schemas use, is a dependency.
  noExternal: ['@svc/domain/filtering', '@svc/domain/profile-documents'],
  esbuildOptions(options) {
    options.conditions = ['source'];
  },
});
