import { type WebhookDeliveryScheduler, WebhookDeliverySchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';
import { WebhookReceiver } from './webhook-receiver.js';

export const SECOND = 1_000;
export const HOUR = 3_600 * SECOND;
export const DAY = 24 * HOUR;
const WEBHOOK_SCOPES = ['profiles:read', 'profiles:write', 'account:read', 'webhooks:read', 'webhooks:write'];

/** A created endpoint as the create answer shows it. */
export interface CreatedWebhook {
  id: string;
  secret: string;
  url: string;
}

/** One delivery as GET …/deliveries shows it. */
export interface DeliveryBody {
  id: string;
  message_id: string;
  event_type: string;
  status: string;
  attempt: number;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

/**
 * Starts the API on `storage` once for a file, with SVC_OUTBOUND_ALLOW_PRIVATE (the receivers listen on
 * loopback), an owner and a stranger, a receiver, and the delivery job stopped so that each test runs it when
 * it has moved the clock.
 */
export function useWebhooksFixture(storage: HarnessStorage, env: Record<string, string> = {}) {
  const state = {} as {
    api: ApiHarness;
    owner: TestAccount;
    stranger: TestAccount;
    job: WebhookDeliveryScheduler;
  };
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    state.api = await startApi(storage, { SVC_OUTBOUND_ALLOW_PRIVATE: 'true', ...env });
    state.owner = await createAccount(state.api, WEBHOOK_SCOPES);
    state.stranger = await createAccount(state.api, WEBHOOK_SCOPES);
    state.job = await state.api.container.getAsync<WebhookDeliveryScheduler>(WebhookDeliverySchedulerToken);
    await state.job.stop();
  }, 60_000);
  afterAll(async () => {
    await state.api?.close();
    await receiver.close();
  });

  const call = (
    path: string,
    options: Parameters<typeof send>[1] = {},
    who = state.owner,
  ): Promise<RawAnswer> =>
    send(`${state.api.url}${path}`, { ...options, headers: { ...who.auth, ...options.headers } });

  /** Registers `${receiver.url}${path}` (a path of the test's own) for `events`. */
  const createWebhook = async (
    path: string,
    body: object = {},
    who = state.owner,
  ): Promise<CreatedWebhook> => {
    const answer = await call(
      '/v1/webhooks',
      { method: 'POST', body: { url: `${receiver.url}${path}`, events: ['profile.created'], ...body } },
      who,
    );
    expect(answer.status, answer.text).toBe(201);
    return answer.json as CreatedWebhook;
  };

  const deliveries = async (webhookId: string, who = state.owner): Promise<DeliveryBody[]> => {
    const answer = await call(`/v1/webhooks/${webhookId}/deliveries?limit=100`, {}, who);
    expect(answer.status, answer.text).toBe(200);
    return (answer.json as { deliveries: DeliveryBody[] }).deliveries;
  };

  const createProfile = async (name = 'Home'): Promise<string> => {
    const answer = await call('/v1/profiles', { method: 'POST', body: { name } });
    expect(answer.status, answer.text).toBe(201);
    return (answer.json as { id: string }).id;
  };

  /** Runs the delivery job once, as its timer would, after moving the clock by `ms`. */
  const deliverAfter = async (ms = 0): Promise<number> => {
    state.api.clock.advance(ms);
    return state.job.runOnce();
  };

  return { state, receiver, call, createWebhook, deliveries, createProfile, deliverAfter };
}

export type WebhooksFixture = ReturnType<typeof useWebhooksFixture>;
