import { createClient, OPERATIONS, type OperationId } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import type { ExpectedRefusal } from '../support/operation-recorder.js';
import { SdkScenario } from '../support/sdk-scenario.js';
import { operationRoutes, operationsNotServed, requestSeries } from '../support/served-operations.js';
import {
  describeAccountUpkeep,
  describeExportAndDeletion,
  describeSecondFactors,
  describeSignIn,
} from './sdk-every-operation/identity.steps.js';
import { describeOperator } from './sdk-every-operation/operator.steps.js';
import { describeProfiles } from './sdk-every-operation/profiles.steps.js';
import { describeTeams } from './sdk-every-operation/teams.steps.js';

/**
 * Operations a test deployment can reach only as a documented error, each with the code it must answer and
 * why. None today: invite mode with an allowlist offers the waitlist (open signup answers POST /v1/waitlist
 * with 503 waitlist_unavailable) while the allowlisted addresses the steps use still sign up.
 */
const REFUSALS: Readonly<Partial<Record<OperationId, ExpectedRefusal>>> = {};

/**
 * Every method of OPERATIONS called through the SDK against one real server on the embedded engines (PGlite,
 * and embedded chdb for logs, analytics and the export's query logs), in the order a customer meets them:
 * signup to tokens, profiles and what hangs off them, nodes, account upkeep, operator routes, second factors,
 * the data export and account deletion last. A recording proxy around each client, then the server's own
 * request metrics, prove that each operation was exercised (issue 11): an operation added to OPERATIONS
 * without a step here fails the last two tests.
 */
describe('every SDK method against a real server (PGlite + chdb)', () => {
  const scenario = new SdkScenario();
  beforeAll(async () => {
    await scenario.start({
      SVC_SIGNUP_MODE: 'invite',
      SVC_SIGNUP_ALLOWLIST: '@example.test',
      // DDNS updates come from a router on the internet, played through a proxy on loopback.
      SVC_TRUST_PROXY: 'loopback',
    });
  }, 60_000);
  afterAll(async () => {
    await scenario.close();
  });

  describeSignIn(scenario);
  describeProfiles(scenario);
  describeAccountUpkeep(scenario);
  describeTeams(scenario);
  describeOperator(scenario);
  describeSecondFactors(scenario);
  describeExportAndDeletion(scenario);

  describe('coverage (issue 11)', () => {
    it('called every method of OPERATIONS, each settling as documented', () => {
      expect(scenario.recorder.missingOperations(REFUSALS), 'methods of OPERATIONS not exercised').toEqual(
        [],
      );
    });

    it('saw the server answer every operation’s route below 500, and no request at 500 or above (/metrics)', async () => {
      const { url } = scenario.api;
      const routes = operationRoutes(await createClient({ baseUrl: url }).meta.openApiYaml());
      const metrics = await send(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      const series = requestSeries(metrics.text);
      expect(series.length).toBeGreaterThan(0);
      expect(operationsNotServed(Object.keys(OPERATIONS), routes, series)).toEqual([]);
      // Nothing the steps did made the server fail.
      expect(series.filter((each) => each.status >= 500)).toEqual([]);
    });
  });
});
