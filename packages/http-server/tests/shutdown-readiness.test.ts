import { connect, type Socket } from 'node:net';
import { createTestApp, defineRoute, type TestApp } from '@svc/http-server';
import { afterEach, describe, expect, it } from 'vitest';

/** A promise with its resolver, to hold a request in flight until the test lets it finish. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Reads HTTP/1.1 answers off a raw socket until `count` complete ones arrived; returns their heads and bodies. */
function answers(socket: Socket, count: number): Promise<{ status: number; body: string }[]> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const parsed: { status: number; body: string }[] = [];
      let rest = buffer;
      while (parsed.length < count) {
        const end = rest.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = rest.slice(0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (rest.length < end + 4 + length) return;
        parsed.push({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
          body: rest.slice(end + 4, end + 4 + length),
        });
        rest = rest.slice(end + 4 + length);
      }
      resolve(parsed);
    });
  });
}

/**
 * RUNNER.md: on SIGTERM the server stops taking new work and finishes what is in flight. Readiness turns
 * not ready the moment shutdown begins, so a load balancer probing over a kept-alive connection stops sending
 * work while the requests in flight still finish; liveness keeps answering until the process ends.
 */
describe('readiness during graceful shutdown', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('answers /readyz 503 shutting_down and /livez 200 while a request in flight finishes', async () => {
    const entered = gate();
    const release = gate();
    app = await createTestApp({
      routes: [
        () => [
          defineRoute({
            method: 'get',
            path: '/v1/test/slow',
            operationId: 'testSlow',
            summary: 'Answers once the test releases it.',
            tags: ['test'],
            auth: 'none',
            responses: { 200: { description: 'Released.' } },
            handler: async () => {
              entered.open();
              await release.promise;
              return { status: 200, body: { released: true } };
            },
          }),
        ],
      ],
    });
    const before = await fetch(`${app.url}/readyz`);
    expect(before.status).toBe(200);

    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    const read = answers(socket, 3);
    socket.write('GET /v1/test/slow HTTP/1.1\r\nHost: svc\r\n\r\n');
    await entered.promise;
    const closed = app.close();
    // Sent on the connection whose request is in flight: shutdown keeps it open until that request ends.
    socket.write('GET /readyz HTTP/1.1\r\nHost: svc\r\n\r\nGET /livez HTTP/1.1\r\nHost: svc\r\n\r\n');
    // Lets the server read the two while the first is still in flight. Not a timed assertion: readiness
    // turned not ready synchronously in close(), whenever the two are read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.open();
    const [slow, ready, live] = await read;
    socket.destroy();
    await closed;
    app = undefined;

    expect(slow?.status).toBe(200);
    expect(JSON.parse(slow?.body ?? '{}')).toEqual({ released: true });
    expect(ready?.status).toBe(503);
    expect(JSON.parse(ready?.body ?? '{}')).toMatchObject({ status: 'not_ready', reason: 'shutting_down' });
    expect(live?.status).toBe(200);
  });
});
