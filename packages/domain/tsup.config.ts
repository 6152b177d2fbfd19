import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'profile-signature': 'src/nodes/profile-signature.ts',
    filtering: 'src/filtering/index.ts',
    'profile-documents': 'src/profile-documents.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
