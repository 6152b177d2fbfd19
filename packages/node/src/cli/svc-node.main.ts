import { runSvcNode } from './svc-node.command.js';

// The `svc-node` process: its arguments, environment, output and signals, handed to the command.
const stopRequested = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
process.exitCode = await runSvcNode(process.argv.slice(2), {
  environment: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stopRequested,
  onReloadRequest: (reload) => process.on('SIGHUP', reload),
});
// The link's timers and sockets are closed by now; exit without waiting for idle keep-alive connections.
process.exit();
