import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { queryLogAnalytics } from './query-log.analytics.js';
import { queryLogDecidedBy } from './query-log.decided-by.js';
import { queryLogDestinations } from './query-log.destinations.js';
import { useQueryLogFixture } from './query-log.fixture.js';
import { queryLogGuardrails } from './query-log.guardrails.js';
import { queryLogRows } from './query-log.logs.js';
import { queryLogTimeZones } from './query-log.time-zones.js';

/**
 * Query logs and analytics through HTTP (spec 2.11, 4.6, 7, 8) on the embedded columnar store, with rows
 * written by the simulated edge (fixed seed) and expected values computed here from those rows.
 */
export function runQueryLogSuite(
  storage: HarnessStorage,
  options: { skip?: boolean; env?: Record<string, string>; label?: string } = {},
): void {
  describe.skipIf(options.skip === true)(
    `query logs and analytics on ${options.label ?? storage} (spec 4.6)`,
    () => {
      const fx = useQueryLogFixture(storage, options);
      queryLogRows(fx);
      queryLogAnalytics(fx);
      queryLogGuardrails(fx);
      queryLogDestinations(fx);
      queryLogTimeZones(fx);
      queryLogDecidedBy(fx);
    },
  );
}
