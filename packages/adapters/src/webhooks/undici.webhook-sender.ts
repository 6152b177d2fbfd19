import { isIP } from 'node:net';
import type { WebhookRequest, WebhookSender, WebhookSendResult } from '@svc/domain';
import { Agent, type Dispatcher, request } from 'undici';
import { forbiddenTargetIn, nonPublicRangeOf, publicOnlyLookup } from '../network/outbound-target.js';
import { standardWebhookSignatureHeader } from './standard-webhooks.signature.js';

/** How webhook requests are made. */
export interface WebhookSenderOptions {
  /**
   * SVC_OUTBOUND_ALLOW_PRIVATE: endpoints may be plain http and loopback, private or reserved addresses
   * (self-hosted installations, tests). Otherwise https to public addresses only, checked after resolution on
   * the connection itself.
   */
  allowPrivate: boolean;
  /** Time-out of one attempt, response included. Default 10 s. */
  timeoutMs?: number;
  /** Response bytes read at most; the rest is discarded (the status is all that counts). Default 64 KiB. */
  maxResponseBytes?: number;
  /** Resolves names for the connection's address check (tests give their own answers; default the system's). */
  resolve?: Parameters<typeof publicOnlyLookup>[0];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
const ERROR_MAX_LENGTH = 500;

/**
 * Sends signed webhook requests with undici: no redirects followed (a 3xx is a failed attempt: where it leads is
 * the receiver's choice, and following it could reach another host), each attempt bounded by a time-out, at
 * most `maxResponseBytes` of the answer read, and, unless `allowPrivate`, only https to addresses that resolve to
 * public unicast ones (the lookup of the connection checks them, so DNS rebinding cannot slip through).
 */
export class UndiciWebhookSender implements WebhookSender {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: WebhookSenderOptions) {
    this.dispatcher = options.allowPrivate
      ? new Agent()
      : new Agent({ connect: { lookup: publicOnlyLookup(this.options.resolve) } });
  }

  refusal(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'must be an https URL';
    }
    if (parsed.username !== '' || parsed.password !== '') return 'must not carry credentials';
    const https = parsed.protocol === 'https:';
    if (!https && !(this.options.allowPrivate && parsed.protocol === 'http:')) return 'must be an https URL';
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && isIP(host) !== 0) {
      const range = nonPublicRangeOf(host);
      if (range !== null) return `must not be a ${range} address`;
    }
    return null;
  }

  async send(webhook: WebhookRequest): Promise<WebhookSendResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const refused = this.refusal(webhook.url);
    if (refused !== null)
      return { ok: false, status: null, durationMs: 0, error: `refused: the URL ${refused}` };
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(webhook.url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-webhooks',
          'webhook-id': webhook.messageId,
          'webhook-timestamp': String(webhook.timestamp),
          'webhook-signature': standardWebhookSignatureHeader(
            webhook.secrets,
            webhook.messageId,
            webhook.timestamp,
            webhook.body,
          ),
        },
        body: webhook.body,
      });
    } catch (error) {
      return { ok: false, status: null, durationMs: took(), error: failureText(error, signal) };
    }
    const readError = await this.readCapped(response.body);
    const status = response.statusCode;
    if (status >= 300 && status < 400)
      return {
        ok: false,
        status,
        durationMs: took(),
        error: redirectText(response.headers.location, webhook.url),
      };
    const ok = status >= 200 && status < 300 && readError === null;
    return {
      ok,
      status,
      durationMs: took(),
      error: ok ? null : (readError ?? `the endpoint answered HTTP ${status}`),
    };
  }

  /** Reads at most the cap and drops the rest; answers why reading failed, if it did. */
  private async readCapped(body: Dispatcher.ResponseData['body']): Promise<string | null> {
    const cap = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Uint8Array).length;
        if (size > cap) {
          body.destroy();
          return null;
        }
      }
      return null;
    } catch (error) {
      return `reading the answer failed: ${failureText(error, undefined)}`;
    }
  }
}

function redirectText(location: string | string[] | undefined, from: string): string {
  const target = Array.isArray(location) ? location[0] : location;
  if (target === undefined) return 'the endpoint redirected; redirects are not followed';
  let host: string;
  try {
    host = new URL(target, from).host;
  } catch {
    host = 'an invalid address';
  }
  return `the endpoint redirected to ${host}; redirects are not followed`;
}

/** What a failed request is recorded as: refusals and time-outs by name, else the error's message. */
function failureText(error: unknown, signal: AbortSignal | undefined): string {
  const refused = forbiddenTargetIn(error);
  if (refused !== undefined) return `refused: ${refused.message}`.slice(0, ERROR_MAX_LENGTH);
  if (signal?.aborted === true) return 'the endpoint did not answer in time';
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, ERROR_MAX_LENGTH);
}
