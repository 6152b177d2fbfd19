import { connect } from 'node:net';

/** The NATS server the suite may use: NATS_URL, else this machine kind's local server. */
export const NATS_TEST_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

function reachable(url: string): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 4222), timeout: 1500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`${url} did not answer within 1.5 s`);
    });
    socket.once('error', (error) => resolve(`${url} is unreachable (${error.message})`));
  });
}

/** Why the NATS tests cannot run, printed once; undefined when NATS answers. */
export const natsSkipReason = await reachable(NATS_TEST_URL);
if (natsSkipReason !== undefined) console.warn(`NATS tests skipped: ${natsSkipReason}`);
