import WebSocket from 'ws';

/** A message the server sent on a link. */
export type LinkMessage = { type: string } & Record<string, unknown>;

/** A raw test client of GET /v1/nodes/self/link: what a node sends and receives, message by message. */
export interface TestLink {
  socket: WebSocket;
  send(message: object): void;
  /** The next message of `type` (earlier ones of other types are kept), waiting up to 5 s. */
  next(type: string): Promise<LinkMessage>;
  /** The messages received and not taken by `next` yet, oldest first. */
  unread(): LinkMessage[];
  /** Resolves with the close code when the server closes the link. */
  closed: Promise<number>;
  close(): void;
}

/** Opens a link with `token`; rejects with the HTTP status when the upgrade is refused. */
export function openLink(apiUrl: string, token: string): Promise<TestLink> {
  const url = `${apiUrl.replace(/^http/, 'ws')}/v1/nodes/self/link`;
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const received: LinkMessage[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()) as LinkMessage);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const link: TestLink = {
    socket,
    send: (message) => socket.send(JSON.stringify(message)),
    next: async (type) => {
      // Generous: a welcome may wait on the first compilation of derived lists on a loaded machine.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const index = received.findIndex((message) => message.type === type);
        if (index >= 0) return received.splice(index, 1)[0] as LinkMessage;
        if (Date.now() > deadline) throw new Error(`no ${type} message; got ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    unread: () => [...received],
    closed,
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(link));
    socket.once('unexpected-response', (_request, response) => {
      reject(
        Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode }),
      );
      socket.terminate();
    });
    socket.once('error', reject);
  });
}
