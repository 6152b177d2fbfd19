import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: ['src/index.ts'],
  sourcemap: true,
  tsconfig: 'tsconfig.build.json',
  // The values the SDK takes from the domain (the node profile signature text, the audit actions) are bundled
  // from their sources, so the built SDK needs no server package at run time; the rest is types only.
  noExternal: ['@svc/domain/profile-signature', '@svc/domain/audit-actions'],
  esbuildOptions(options) {
    options.conditions = ['source'];
  },
};

/** Swaps the undici engine for its stub, so that browser bundles never contain undici. */
const withoutUndici = {
  name: 'sdk-without-undici',
  setup(build: { onResolve: (filter: { filter: RegExp }, resolve: () => { path: string }) => void }) {
    build.onResolve({ filter: /\/undici-engine\.js$/ }, () => ({
      path: fileURLToPath(new URL('./src/http/undici-engine.browser.ts', import.meta.url)),
    }));
  },
};

export default defineConfig([
  {
    ...shared,
    // Both module systems from one package: `import` resolves dist/index.js, `require` dist/index.cjs. undici is
    // loaded by a dynamic import on the first call, so it is its own chunk of the ESM build.
    format: ['esm', 'cjs'],
    // The declarations take the domain's schemas in (its two entry points mapped to their sources), so the
    // published types import no @svc package. tsup's `dts.resolve` cannot do it: it reads a package's `types`
    // field, and the domain declares its types under `exports` only. What stays external is zod (the inlined
    // schema types are zod types; a dependency of this package, never loaded at run time) and undici.
    dts: {
      compilerOptions: {
        rootDir: '..',
        paths: {
          '@svc/domain': ['../domain/src/index.ts'],
          '@svc/domain/profile-signature': ['../domain/src/nodes/profile-signature.ts'],
          '@svc/domain/audit-actions': ['../domain/src/audit/audit-actions.ts'],
        },
      },
    },
    // Everything but the browser build, which the other configuration writes at the same time.
    clean: ['!browser/**'],
    target: 'node20',
  },
  {
    ...shared,
    // The `browser` condition of package.json: fetch only, no undici anywhere in the module graph.
    format: ['esm'],
    outDir: 'dist/browser',
    clean: true,
    target: 'es2022',
    platform: 'browser',
    esbuildPlugins: [withoutUndici],
  },
]);
