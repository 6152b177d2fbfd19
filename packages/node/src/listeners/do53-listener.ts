import type { QueryResolver } from '../resolving/dns-resolver.js';
import { type StreamLimits, StreamListener } from './stream-listener.js';
import { UdpListener } from './udp-listener.js';

/** Times a free port is looked for when port 0 was asked and TCP finds the UDP port taken. */
const FREE_PORT_ATTEMPTS = 5;

/**
 * Plain DNS (Do53) on one address and port, over UDP and TCP alike (a client asks again over TCP when a UDP
 * answer is truncated, on the same port). `port` 0 picks a port free for both.
 */
export class Do53Listener {
  private constructor(
    private readonly udp: UdpListener,
    private readonly tcp: StreamListener,
  ) {}

  static async listen(
    resolver: QueryResolver,
    host: string,
    port: number,
    limits: StreamLimits = {},
  ): Promise<Do53Listener> {
    for (let attempt = 1; ; attempt += 1) {
      const udp = await UdpListener.listen(resolver, host, port);
      try {
        return new Do53Listener(udp, await StreamListener.tcp(resolver, host, udp.address.port, limits));
      } catch (error) {
        await udp.close();
        const taken = error instanceof Error && 'code' in error && error.code === 'EADDRINUSE';
        if (port !== 0 || !taken || attempt === FREE_PORT_ATTEMPTS) throw error;
      }
    }
  }

  /** The bound address and port (the same for UDP and TCP). */
  get address(): { host: string; port: number } {
    return this.udp.address;
  }

  async close(): Promise<void> {
    await Promise.all([this.udp.close(), this.tcp.close()]);
  }
}
