import { builtinEnvironments, type Environment } from 'vitest/runtime';

/**
 * jsdom for the page, with modules transformed as on Node (vitest's `ssr` environment) rather than as for a
 * browser: the API server the tests start in their own process (`@svc/testing/in-process-api`) reads files
 * beside its modules through `import.meta.url`, which the browser transform rewrites to the page's address,
 * and the SDK picks its Node transport, which keeps the session cookie as the browser's jar would.
 */
const jsdomOnNode: Environment = { ...builtinEnvironments.jsdom, viteEnvironment: 'ssr' };

export default jsdomOnNode;
