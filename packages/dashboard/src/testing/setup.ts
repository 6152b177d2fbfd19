// Setup of the dashboard's component tests (vitest.config.ts, project `dashboard`): Testing Library's
// matchers (`toBeInTheDocument`, `toHaveAccessibleDescription`, …), and an empty document after each test,
// which Testing Library does itself only where vitest's globals are on (they are not here).
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// `findBy…` waits up to 5 s rather than 1 s: a page's module is transformed on its first lazy load, and the
// machines running the suite are shared, so the first render of a page can take seconds.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});
