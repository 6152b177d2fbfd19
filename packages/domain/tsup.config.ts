import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'profile-signature': 'src/nodes/profile-signature.ts',
    'audit-actions': 'src/audit/audit-actions.ts',
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
