import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookRequest } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UndiciWebhookSender } from '../src/webhooks/undici.webhook-sender.js';

const SECRET = `whsec_${Buffer.from('a secret of twenty-four!').toString('base64')}`;

function requestTo(url: string): WebhookRequest {
  return { url, messageId: 'msg_1', timestamp: 1_700_000_000, body: '{"type":"ping"}', secrets: [SECRET] };
}

/** A receiver on loopback whose answer each test sets. */
let server: Server;
let base = '';
let answer: (response: import('node:http').ServerResponse) => void = (response) => response.end();
let hits = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    hits += 1;
    request.resume();
    request.on('end', () => answer(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe(UndiciWebhookSender.name, () => {
  describe('without SVC_OUTBOUND_ALLOW_PRIVATE', () => {
    const sut = new UndiciWebhookSender({
      allowPrivate: false,
      // A name that resolves to a private address, as an attacker's DNS would answer.
      resolve: (hostname, _options, callback) =>
        callback(null, [
          { address: hostname === 'hooks.example.test' ? '10.0.0.7' : '127.0.0.1', family: 4 },
        ]),
    });

    it('refuses plain http, credentials in the URL and non-public address literals before any request', () => {
      expect(sut.refusal('http://example.com/hook')).toBe('must be an https URL');
      expect(sut.refusal('https://user:secret@example.com/hook')).toBe('must not carry credentials');
      expect(sut.refusal('https://127.0.0.1/hook')).toBe('must not be a loopback address');
      expect(sut.refusal('https://[::1]/hook')).toBe('must not be a loopback address');
      expect(sut.refusal('https://169.254.169.254/latest')).toBe('must not be a linkLocal address');
      expect(sut.refusal('https://example.com/hook')).toBeNull();
    });

    it('refuses a name that resolves to a private address, checked on the connection itself', async () => {
      const result = await sut.send(requestTo('https://hooks.example.test/hook'));
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toBe('refused: hooks.example.test resolves to 10.0.0.7, a private address');
    });

    it('refuses a name that resolves to loopback', async () => {
      const before = hits;
      const result = await sut.send(requestTo(`https://localhost:${new URL(base).port}/hook`));
      expect(result.error).toMatch(/^refused: localhost resolves to 127\.0\.0\.1/);
      expect(hits).toBe(before);
    });
  });

  describe('with SVC_OUTBOUND_ALLOW_PRIVATE', () => {
    const sut = new UndiciWebhookSender({ allowPrivate: true, timeoutMs: 300, maxResponseBytes: 1024 });

    it('counts a 2xx as delivered and anything else as failed, with its status', async () => {
      answer = (response) => response.writeHead(202).end();
      expect(await sut.send(requestTo(`${base}/ok`))).toMatchObject({ ok: true, status: 202, error: null });
      answer = (response) => response.writeHead(500).end('boom');
      expect(await sut.send(requestTo(`${base}/fail`))).toMatchObject({
        ok: false,
        status: 500,
        error: 'the endpoint answered HTTP 500',
      });
    });

    it('does not follow a redirect to another host', async () => {
      answer = (response) => response.writeHead(307, { location: 'https://elsewhere.example/steal' }).end();
      const before = hits;
      const result = await sut.send(requestTo(`${base}/redirect`));
      expect(result).toMatchObject({ ok: false, status: 307 });
      expect(result.error).toBe('the endpoint redirected to elsewhere.example; redirects are not followed');
      expect(hits - before).toBe(1);
    });

    it('gives up on an endpoint that does not answer in time', async () => {
      answer = () => undefined;
      const result = await sut.send(requestTo(`${base}/slow`));
      expect(result).toMatchObject({ ok: false, status: null, error: 'the endpoint did not answer in time' });
      expect(result.durationMs).toBeLessThan(2_000);
    });

    it('reads at most the response cap of a huge answer, and still counts its 200', async () => {
      answer = (response) => {
        response.writeHead(200);
        response.end(Buffer.alloc(1024 * 1024, 'x'));
      };
      expect(await sut.send(requestTo(`${base}/huge`))).toMatchObject({ ok: true, status: 200 });
    });
  });
});
