import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerDohRequest, DOH_PATH } from '@svc/node/listeners';
import type { DnsResolver } from './dns-resolver.js';

/**
 * DNS over HTTPS (RFC 8484) on `/dns-query`, and `/dns-query/<device>` for a device (issue 38), answered as
 * svc-node answers it (`answerDohRequest`). Served over plain HTTP on loopback: TLS is for the proxy in front
 * of it (see the README).
 */
export class DohListener {
  private constructor(private readonly server: Server) {}

  static async listen(resolver: DnsResolver, host: string, port: number): Promise<DohListener> {
    const server = createServer((request, response) => void answerDohRequest(resolver, request, response));
    server.listen(port, host);
    await once(server, 'listening');
    return new DohListener(server);
  }

  /** The `http://host:port/dns-query` this listener answers on. */
  get url(): string {
    const address = this.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}${DOH_PATH}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}
