import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  // zod is shared with the domain: bundling it here too (with every locale) loaded a second copy of zod in the
  // server (docs/adr/0009-lazy-engines-and-modules.md).
  external: ['zod'],
});
