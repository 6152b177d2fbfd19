import { describe } from 'vitest';
import { sdkDevicesReportsAndFactors } from './sdk-profiles/sdk-profiles.devices-and-factors.js';
import { useSdkProfilesApp } from './sdk-profiles/sdk-profiles.fixture.js';
import { sdkProfileResources } from './sdk-profiles/sdk-profiles.resources.js';

// One behaviour a module under sdk-profiles/, on one server for the file.
describe('SDK profiles, linked IPs, setup, catalogues and second factors against the real server', () => {
  const fx = useSdkProfilesApp();
  sdkProfileResources(fx);
  sdkDevicesReportsAndFactors(fx);
});
