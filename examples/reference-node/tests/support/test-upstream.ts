import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { type Answer, decode, encode, RECURSION_AVAILABLE, RECURSION_DESIRED } from 'dns-packet';

/** The address the test upstream answers every A query with, and its AAAA. */
export const UPSTREAM_V4 = '203.0.113.7';
export const UPSTREAM_V6 = '2001:db8::7';

/** A resolver on 127.0.0.1 standing in for the internet: it answers every name, and remembers which it was asked. */
export interface TestUpstream {
  host: string;
  port: number;
  /** Names asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** Starts a UDP DNS upstream on a free loopback port (A and AAAA answered, other types empty, `missing.` NXDOMAIN). */
export async function startTestUpstream(): Promise<TestUpstream> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (message, sender) => {
    const query = decode(message);
    const question = query.questions?.[0];
    if (question === undefined) return;
    asked.push(question.name);
    const missing = question.name.startsWith('missing.');
    const answers: Answer[] = missing
      ? []
      : question.type === 'A'
        ? [{ type: 'A', name: question.name, ttl: 300, class: 'IN', data: UPSTREAM_V4 }]
        : question.type === 'AAAA'
          ? [{ type: 'AAAA', name: question.name, ttl: 300, class: 'IN', data: UPSTREAM_V6 }]
          : [];
    const answer = encode({
      type: 'response',
      id: query.id ?? 0,
      flags: ((query.flags ?? 0) & RECURSION_DESIRED) | RECURSION_AVAILABLE | (missing ? 3 : 0),
      questions: query.questions ?? [],
      answers,
    });
    socket.send(answer, sender.port, sender.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    host: '127.0.0.1',
    port: socket.address().port,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
