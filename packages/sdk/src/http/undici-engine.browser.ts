import type { HttpEngine } from './http-engine.js';

/**
 * Stands in for the undici engine in the browser build (package.json `browser` condition), so that browser
 * bundles never contain undici; asking for it there is a configuration mistake.
 */
export function undiciEngine(_dispatcher: unknown): HttpEngine {
  throw new Error(
    "The undici transport does not run in browsers: use transport: 'fetch' (the default there)",
  );
}
