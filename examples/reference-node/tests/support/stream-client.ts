import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { DnsFrameReader, framed } from '@svc/node/dns-wire';
import { type DecodedPacket, decode } from 'dns-packet';

/** A DNS stream connection (TCP, or TLS verified against a CA) that collects the answers in arrival order. */
export interface StreamClient {
  socket: Socket;
  /** Answers received so far, in the order they came. */
  answers: DecodedPacket[];
  /** Writes messages, each with its length, in one write (pipelined). */
  send(...messages: Buffer[]): void;
  /** Resolves once `count` answers have come in all (rejects when the server closes first). */
  received(count: number): Promise<DecodedPacket[]>;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  close(): void;
}

/** Opens a stream to 127.0.0.1:`port`; with `ca`, over TLS checking the certificate for `localhost`. */
export async function openStream(port: number, ca?: Buffer): Promise<StreamClient> {
  const socket =
    ca === undefined
      ? connect({ host: '127.0.0.1', port })
      : connectTls({ host: '127.0.0.1', port, ca, servername: 'localhost' });
  await once(socket, ca === undefined ? 'connect' : 'secureConnect');
  const reader = new DnsFrameReader();
  const answers: DecodedPacket[] = [];
  const waiting: (() => void)[] = [];
  let ended = false;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      ended = true;
      for (const wake of waiting.splice(0)) wake();
      resolve();
    }),
  );
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    for (const message of reader.push(chunk)) answers.push(decode(message));
    for (const wake of waiting.splice(0)) wake();
  });
  return {
    socket,
    answers,
    send: (...messages) => socket.write(Buffer.concat(messages.map(framed))),
    received: async (count) => {
      while (answers.length < count) {
        if (ended) throw new Error(`the server closed after ${answers.length} of ${count} answers`);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      return answers.slice(0, count);
    },
    closed,
    close: () => socket.destroy(),
  };
}
