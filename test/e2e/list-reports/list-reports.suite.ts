import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { useListReportsFixture } from './list-reports.fixture.js';
import { listReportLimitsAndAccess } from './list-reports.limits-and-access.js';
import { listReportRecording } from './list-reports.recording.js';

/**
 * List reports through HTTP (spec 2.6, 3, 4.5, 7, 8): recorded open with the list's catalogue version and a
 * triage deadline two business days on, normalised, limited to 20 per account in any 24 hours, idempotent,
 * refused on suspended profiles and invisible to other organisations.
 */
export function runListReportsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`list reports through HTTP on ${storage} (spec 2.6, 4.5)`, () => {
    const fx = useListReportsFixture(storage);
    listReportRecording(fx);
    listReportLimitsAndAccess(fx);
  });
}
