import { BLOCKLIST_CATALOGUE, findBlocklist } from '@svc/domain';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../../support/http.js';
import { createProfile as createProfileAs } from '../../support/profiles.js';

interface ListReportBody {
  id: string;
  profile_id: string;
  domain: string;
  list_id: number;
  list_version: number | null;
  kind: string;
  note: string;
  status: string;
  resolution_note: string;
  resolved_at: string | null;
  created_at: string;
  triage_due_at: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const LIST = BLOCKLIST_CATALOGUE.lists[0]?.id ?? 1;
/** A list id within 1..65535 that the catalogue does not hold. */
export const UNCATALOGUED = [65_535, 65_534, 65_533].find((id) => findBlocklist(id) === undefined) ?? 65_535;
/**
 * Starts the server on `storage` once for the suite, with an owner and a stranger, and the report calls
 * every behaviour uses.
 */
export function useListReportsFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    api = await startApi(storage);
    owner = await createAccount(api);
    stranger = await createAccount(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const createProfile = (who: TestAccount = owner): Promise<string> => createProfileAs(api, who);
  const reportsPath = (profileId: string) => `${api.url}/v1/profiles/${profileId}/list-reports`;
  const report = (profileId: string, body: object, who: TestAccount = owner, headers = {}) =>
    send(reportsPath(profileId), { method: 'POST', headers: { ...who.auth, ...headers }, body });
  const reported = async (profileId: string, body: object = {}, who: TestAccount = owner) => {
    const answer = await report(
      profileId,
      { domain: 'ads.example.com', list_id: LIST, kind: 'false_positive', ...body },
      who,
    );
    expect(answer.status, answer.text).toBe(202);
    return (answer.json as { id: string }).id;
  };
  const listOf = async (profileId: string, query = '', who: TestAccount = owner) => {
    const answer = await send(`${reportsPath(profileId)}${query}`, { headers: who.auth });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as { reports: ListReportBody[]; next_cursor: string | null };
  };
  const errorsOf = (answer: RawAnswer) => problemOf(answer).errors as { field: string; message: string }[];
  const etagOf = async (profileId: string) =>
    (await send(`${api.url}/v1/profiles/${profileId}`, { headers: owner.auth })).headers.etag;

  return {
    get api(): ApiHarness {
      return api;
    },
    get owner(): TestAccount {
      return owner;
    },
    get stranger(): TestAccount {
      return stranger;
    },
    createProfile,
    reportsPath,
    report,
    reported,
    listOf,
    errorsOf,
    etagOf,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type ListReportsFixture = ReturnType<typeof useListReportsFixture>;
