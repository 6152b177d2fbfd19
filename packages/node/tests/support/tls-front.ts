import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { createServer } from 'node:tls';
import type { SelfSignedCertificate } from '@svc/testing/self-signed-certificate';

/** A DNS-over-TLS front on loopback for a plain TCP DNS server: TLS ends here, the stream goes on as it is. */
export interface TlsFront {
  port: number;
  close(): Promise<void>;
}

export async function startTlsFront(
  backend: { host: string; port: number },
  certificate: SelfSignedCertificate,
): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const server = createServer({ cert: certificate.certificate, key: certificate.key }, (client) => {
    const upstream = connect(backend);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
