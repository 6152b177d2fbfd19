import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { isIPv6 } from 'node:net';
import type { QueryResolver } from '../resolving/dns-resolver.js';

/** Plain DNS over UDP (Do53) on one address; `port` 0 picks a free one. */
export class UdpListener {
  private constructor(private readonly socket: Socket) {}

  static async listen(resolver: QueryResolver, host: string, port: number): Promise<UdpListener> {
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    socket.on('message', (message, sender) => {
      resolver.resolve(message, { transport: 'do53', clientIp: sender.address, overUdp: true }).then(
        (answer) => {
          // A send that fails (the client's port is gone) loses one answer, as UDP may anyway.
          if (answer !== null) socket.send(answer.wire, sender.port, sender.address, () => undefined);
        },
        // A query that fails inside the resolver gets no answer: the client retries or times out.
        () => undefined,
      );
    });
    socket.bind(port, host);
    await once(socket, 'listening');
    return new UdpListener(socket);
  }

  /** The bound address and port. */
  get address(): { host: string; port: number } {
    const address = this.socket.address();
    return { host: address.address, port: address.port };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
