import { describe } from 'vitest';
import { useConventionsApp } from './conventions/conventions.fixture.js';
import { conventionRequests, conventionsOfOtherSettings } from './conventions/conventions.requests.js';
import { conventionResponses } from './conventions/conventions.responses.js';

/**
 * API conventions through HTTP, one behaviour a file under conventions/, on one server for the file (a file
 * each would import the server's modules once more each).
 */
describe('API conventions through HTTP (spec 4.1, 5.6, 7)', () => {
  const fx = useConventionsApp();
  conventionResponses(fx);
  conventionRequests(fx);
});

conventionsOfOtherSettings();
