// Setup of the dashboard's component tests (vitest.config.ts, project `dashboard`): Testing Library's
// matchers (`toBeInTheDocument`, `toHaveAccessibleDescription`, …), and an empty document after each test,
// which Testing Library does itself only where vitest's globals are on (they are not here).
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
});
