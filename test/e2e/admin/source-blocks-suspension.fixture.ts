import { afterAll, beforeAll } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator, recordBus, type SeenMessage, type TestOperator } from './operator-fixture.js';

export interface SourceBlockBody {
  id: string;
  cidr: string;
  reason: string;
  pops: string[];
  jurisdictions: string[];
  expires_at: string;
  created_by: string;
  removed_by: string | null;
  removed_at: string | null;
}
export interface SourceChange {
  block: SourceBlockBody;
  file_version: number;
}
export interface Suspension {
  profile_id: string;
  org_id: string;
  version: number;
  suspended: boolean;
  reason: string | null;
  suspended_by: string | null;
  suspended_at: string | null;
}
interface AuditEntries {
  entries: { action: string; target: string; details: Record<string, unknown> }[];
}

const DAY = 86_400_000;

/**
 * Starts the server on `storage` once for the suite, with an operator, an owner and the operator-file
 * announcements on the bus, and the calls every behaviour uses.
 */
export function useSourceBlocksFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let operator: TestOperator;
  let owner: TestAccount;
  let bus: SeenMessage[];

  beforeAll(async () => {
    api = await startApi(storage);
    operator = await createOperator(api);
    owner = await createAccount(api);
    bus = await recordBus(api, '>');
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const sources = (path = '') => `${api.url}/v1/admin/source-blocks${path}`;
  const inDays = (days: number) => new Date(api.clock.now().getTime() + days * DAY).toISOString();
  const createSource = (body: object, headers: Record<string, string> = operator.admin) =>
    send(sources(), { method: 'POST', headers, body });
  const audit = async (action: string) =>
    (
      (await send(`${api.url}/v1/auth/audit?action=${action}&limit=200`, { headers: operator.admin }))
        .json as AuditEntries
    ).entries;
  const sourceAnnouncements = () =>
    bus
      .filter((message) => message.subject === 'operator.changed')
      .map(
        (message) =>
          message.payload as {
            file: string;
            version: number;
            document: { sources: { id: string; cidr: string }[] };
          },
      )
      .filter((payload) => payload.file === 'operator_sources');

  return {
    get api(): ApiHarness {
      return api;
    },
    get operator(): TestOperator {
      return operator;
    },
    get owner(): TestAccount {
      return owner;
    },
    get bus(): SeenMessage[] {
      return bus;
    },
    sources,
    inDays,
    createSource,
    audit,
    sourceAnnouncements,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type SourceBlocksFixture = ReturnType<typeof useSourceBlocksFixture>;
