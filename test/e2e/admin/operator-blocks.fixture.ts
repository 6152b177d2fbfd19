import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator, recordBus, type SeenMessage, type TestOperator } from './operator-fixture.js';

export interface BlockBody {
  id: string;
  pattern: string;
  reason_code: string;
  public_ref: string;
  note: string;
  pops: string[];
  jurisdictions: string[];
  expires_at: string | null;
  created_by: string;
  created_at: string;
  removed_by: string | null;
  removed_at: string | null;
}
export interface Change {
  block: BlockBody;
  file_version: number;
}
interface Announcement {
  file: string;
  version: number;
  document: { kind: string; version: number; blocks?: Record<string, unknown>[]; sources?: unknown[] };
}
interface AuditBody {
  entries: { action: string; actor: string; target: string; details: Record<string, unknown> }[];
}

export const HOUR = 3_600_000;
export let sequence = 0;
/** A pattern no other test uses. */
export const freshPattern = (prefix = 'blocked') =>
  `${prefix}${++sequence}-${Math.random().toString(36).slice(2, 7)}.example`;

/**
 * Starts the server on `storage` once for the suite, with an operator, a customer and the operator-file
 * announcements on the bus, and the block calls every behaviour uses.
 */
export function useOperatorBlocksFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let operator: TestOperator;
  let customer: TestAccount;
  let bus: SeenMessage[];

  beforeAll(async () => {
    api = await startApi(storage);
    operator = await createOperator(api);
    customer = await createAccount(api);
    bus = await recordBus(api, 'operator.changed');
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const url = (path = '') => `${api.url}/v1/admin/operator-blocks${path}`;
  const create = (body: object, headers: Record<string, string> = operator.admin) =>
    send(url(), { method: 'POST', headers, body });
  const created = async (body: object = {}): Promise<Change> => {
    const answer = await create({ pattern: freshPattern(), reason_code: 'abuse', ...body });
    expect(answer.status, answer.text).toBe(201);
    return answer.json as Change;
  };
  const announcementsOf = (file: string) =>
    bus.map((message) => message.payload as Announcement).filter((payload) => payload.file === file);
  const latestVersion = async (file: string): Promise<number> =>
    Math.max(0, ...announcementsOf(file).map((announcement) => announcement.version));
  const waitForVersion = (file: string, version: number) =>
    eventually(
      () => latestVersion(file),
      (latest) => latest >= version,
    );
  const auditOf = async (action: string): Promise<AuditBody['entries']> => {
    const answer = await send(`${api.url}/v1/auth/audit?action=${action}&limit=200`, {
      headers: operator.admin,
    });
    expect(answer.status).toBe(200);
    return (answer.json as AuditBody).entries;
  };

  return {
    get api(): ApiHarness {
      return api;
    },
    get operator(): TestOperator {
      return operator;
    },
    get customer(): TestAccount {
      return customer;
    },
    get bus(): SeenMessage[] {
      return bus;
    },
    url,
    create,
    created,
    announcementsOf,
    latestVersion,
    waitForVersion,
    auditOf,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type OperatorBlocksFixture = ReturnType<typeof useOperatorBlocksFixture>;
