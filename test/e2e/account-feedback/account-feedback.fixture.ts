import { UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';

interface AuditEntryBody {
  id: string;
  actor: string;
  action: string;
  target: string;
  created_at: string;
  client_ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

export interface AuditPage {
  entries: AuditEntryBody[];
  next_cursor: string | null;
}

/** Deprecation moment and sunset of `release`, `route` and `at` (spec section 9 table). */
export const DEPRECATION = `@${Date.UTC(2026, 8, 30) / 1000}`;

export const SUNSET = 'Wed, 31 Mar 2027 00:00:00 GMT';

/**
 * Starts the server on `storage` once for the suite, with an owner and a stranger, and the calls every
 * behaviour of the account's feedback uses.
 */
export function useAccountFeedbackFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let ownerId: string;
  beforeAll(async () => {
    api = await startApi(storage);
    owner = await createAccount(api);
    stranger = await createAccount(api);
    const me = await send(`${api.url}/v1/auth/me`, { headers: session(owner) });
    ownerId = (me.json as { account: { id: string } }).account.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  const session = (who: TestAccount) => ({ cookie: `svc_session=${who.cookie}` });

  const call = (
    path: string,
    options: {
      method?: 'GET' | 'POST' | 'PATCH';
      headers?: Record<string, string>;
      body?: string | object;
    },
  ) => send(`${api.url}${path}`, options);

  const audit = async (query = '', who: TestAccount = owner): Promise<AuditPage> => {
    const answer = await call(`/v1/auth/audit${query}`, { headers: who.auth });
    expect(answer.status, answer.text).toBe(200);
    return answer.json as AuditPage;
  };

  const latest = async () => {
    const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
    return uow.run(async (tx) => ({
      clientErrors: await tx.clientErrors.latest(20),
      feedback: await tx.feedback.latest(20),
    }));
  };
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
    get ownerId(): string {
      return ownerId;
    },
    session,
    call,
    audit,
    latest,
  };
}

/** What every behaviour of the suite reads: the running server, its accounts and the helpers above. */
export type AccountFeedbackFixture = ReturnType<typeof useAccountFeedbackFixture>;
