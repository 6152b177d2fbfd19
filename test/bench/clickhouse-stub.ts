import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for a ClickHouse server's HTTP interface, for measuring the API server's memory with
 * CLICKHOUSE_URL set where no ClickHouse server is installed: it accepts the statements the migrations send
 * and answers every SELECT with no rows. The API server does exactly what it does against a real server
 * (client, keep-alive agent, the migration requests); only the far end is smaller.
 */
export async function startClickHouseStub(listenPort = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      res.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=UTF-8',
        'x-clickhouse-summary': '{"read_rows":"0","written_rows":"0"}',
      });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://default:@127.0.0.1:${port}/default`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
