import { describe } from 'vitest';
import type { HarnessStorage } from '../../support/api-harness.js';
import { profileAccess } from './profiles.access.js';
import { profileCreate } from './profiles.create.js';
import { profileDevicePolicies } from './profiles.device-policies.js';
import { useProfilesFixture } from './profiles.fixture.js';
import { profilePause } from './profiles.pause.js';
import { profilePolicies } from './profiles.policies.js';
import { profileRulesAndLists } from './profiles.rules-and-lists.js';
import { profileSchedules } from './profiles.schedules.js';
import { profileUpdate } from './profiles.update.js';

/** Profiles through HTTP: defaults, validation, versioning, If-Match, publication, isolation (spec 2.3, 4.2). */
export function runProfilesSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `profiles through HTTP on ${storage} (spec 2.3, 4.1.3, 4.2, 6.3)`,
    () => {
      const fx = useProfilesFixture(storage);
      profileCreate(fx);
      profileUpdate(fx);
      profileRulesAndLists(fx);
      profileSchedules(fx);
      profileAccess(fx);
      profilePause(fx);
      profilePolicies(fx);
      profileDevicePolicies(fx);
    },
  );
}
