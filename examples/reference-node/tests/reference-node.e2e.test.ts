import { describe } from 'vitest';
import { referenceNodeAnswers } from './reference-node.answers.js';
import { referenceNodeChanges } from './reference-node.changes.js';
import { useReferenceNode } from './reference-node.fixture.js';

/**
 * examples/reference-node against a real API server (issue 8, spec 2.3, 2.4, 2.11, 4.6, 4.13): it enrols,
 * applies the signed profile, answers real DNS queries over UDP and DoH (GET and POST) with the profile's
 * rules and block mode, forwards allowed names to an upstream on loopback, records every query, answers the
 * API's relayed log and analytics queries from its own store, follows rule changes pushed over the link, and
 * starts again from its saved token.
 */
describe('reference node end to end (4.13)', () => {
  const fx = useReferenceNode();
  referenceNodeAnswers(fx);
  referenceNodeChanges(fx);
});
