import { defineConfig } from 'tsup';

export default defineConfig({
  entry: [
    'src/index.ts',
    'src/log/index.ts',
    'src/dns/index.ts',
    'src/listeners/index.ts',
    'src/filtering/query-decision.ts',
    'src/cli/svc-node.main.ts',
  ],
  format: ['esm'],
  dts: {
    entry: [
      'src/index.ts',
      'src/log/index.ts',
      'src/dns/index.ts',
      'src/listeners/index.ts',
      'src/filtering/query-decision.ts',
    ],
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  esbuildOptions(options) {
    options.conditions = ['source'];
  },
});
