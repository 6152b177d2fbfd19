import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const sdkBrowserEngine = fileURLToPath(new URL('../sdk/src/http/undici-engine.browser.ts', import.meta.url));

/**
 * The SDK is bundled from its sources (the `source` export condition), so the dashboard never waits for the
 * SDK's own build; this swaps its undici engine for the browser stub exactly as the SDK's browser build does
 * (packages/sdk/tsup.config.ts), so that undici never enters the bundle.
 */
function sdkBrowserBuild(): Plugin {
  return {
    name: 'svc-sdk-browser-build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.includes('/packages/sdk/src/') && /\/undici-engine\.js$/.test(source))
        return sdkBrowserEngine;
      return null;
    },
  };
}

export default defineConfig({
  plugins: [sdkBrowserBuild(), react()],
  resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The served Content-Security-Policy allows scripts from the origin only: no inline polyfill script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    // `npm run dev -w @svc/dashboard` proxies the API of a local `svc serve`, so the page and the API share an
    // origin as they do when svc serves the built files.
    proxy: { '/v1': process.env.SVC_API_URL ?? 'http://127.0.0.1:8080' },
  },
});
