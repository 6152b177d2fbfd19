import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { accountAudit } from './account-feedback.audit.js';
import { accountClientErrors } from './account-feedback.client-errors.js';
import { accountFeedback } from './account-feedback.feedback.js';
import { useAccountFeedbackFixture } from './account-feedback.fixture.js';
import { accountPreferences } from './account-feedback.preferences.js';

/**
 * Preferences, the organisation's audit log, dashboard error reports and feedback through HTTP (spec 2.2, 4.8,
 * 4.11, 6.2, 9; ROUTES.md).
 */
export function runAccountFeedbackSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `preferences, audit log, client errors and feedback on ${storage} (spec 2.2, 4.8, 4.11, 6.2, 9)`,
    () => {
      const fx = useAccountFeedbackFixture(storage);
      accountPreferences(fx);
      accountAudit(fx);
      accountClientErrors(fx);
      accountFeedback(fx);
    },
  );
}
