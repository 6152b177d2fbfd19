import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { enrolNode, FileCredentialStore } from '@svc/node-agent-kit';
import { loadNodeConfig, NodeConfigError } from '../config/node-config.load.js';
import type { NodeConfig } from '../config/node-config.schema.js';
import { ANSWERED_SHAPES } from '../log/relayed-query-handler.js';
import { credentialsFile, SVC_NODE_VERSION, SvcNode } from '../svc-node.js';

/** Exit codes of `svc-node`, part of its contract (shown by `svc-node help`). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Where the command reads and writes; the process's own in `svc-node.main.ts`, others in tests. */
export interface CommandIo {
  environment: Readonly<Record<string, string | undefined>>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopRequested: Promise<void>;
  /** Calls `reload` on each request to read the configuration again (SIGHUP). */
  onReloadRequest: (reload: () => void) => void;
}

const USAGE = `usage: svc-node [--config FILE] <command>

commands:
  enrol CODE   exchange a one-time enrolment code for this node's token (kept in <data_dir>/credentials.json)
  run          answer DNS as the enrolled profile says; SIGHUP reads the configuration again
  help         this text

The configuration is FILE, else $SVC_NODE_CONFIG, else ./svc-node.toml when it exists (TOML, or JSON when the
name ends in .json); SVC_NODE_* variables override its fields (packages/node/README.md).

exit codes: 0 done, 1 failed (enrolment refused, revoked, cannot start), 2 bad usage or configuration`;

/** Runs `svc-node` with these arguments; resolves with the exit code. */
export async function runSvcNode(args: readonly string[], io: CommandIo): Promise<number> {
  const [flag, value, ...rest] = args;
  const explicitPath = flag === '--config' ? value : undefined;
  const [command, ...operands] = flag === '--config' ? rest : args;
  if (command === undefined || command === 'help' || command === '--help') {
    io.out(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if ((command === 'enrol' && operands.length !== 1) || (command === 'run' && operands.length !== 0)) {
    io.err(USAGE);
    return EXIT.usage;
  }
  let config: NodeConfig;
  const path = configPath(explicitPath, io.environment);
  try {
    config = await loadNodeConfig(path, io.environment);
  } catch (error) {
    if (!(error instanceof NodeConfigError)) throw error;
    io.err(`svc-node: ${error.message}`);
    return EXIT.usage;
  }
  if (command === 'enrol') return enrol(config, operands[0] ?? '', io);
  if (command === 'run') return run(config, path, io);
  io.err(`svc-node: unknown command "${command}"\n${USAGE}`);
  return EXIT.usage;
}

function configPath(explicit: string | undefined, environment: CommandIo['environment']): string | null {
  if (explicit !== undefined) return explicit;
  const fromEnvironment = environment.SVC_NODE_CONFIG;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  return existsSync('svc-node.toml') ? 'svc-node.toml' : null;
}

async function enrol(config: NodeConfig, code: string, io: CommandIo): Promise<number> {
  await mkdir(config.data_dir, { recursive: true, mode: 0o700 });
  const store = new FileCredentialStore(credentialsFile(config));
  const saved = await store.load();
  if (saved !== null) {
    io.err(
      `svc-node: already enrolled as node ${saved.nodeId}; remove ${credentialsFile(config)} to enrol again`,
    );
    return EXIT.failed;
  }
  try {
    const enrolled = await enrolNode({
      baseUrl: config.api_url,
      enrolmentCode: code,
      version: SVC_NODE_VERSION,
      shapes: [...ANSWERED_SHAPES],
      store,
    });
    io.out(`enrolled as node ${enrolled.nodeId} of profile ${enrolled.profileId}`);
    return EXIT.ok;
  } catch (error) {
    io.err(`svc-node: enrolment failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

async function run(config: NodeConfig, path: string | null, io: CommandIo): Promise<number> {
  const log = (message: string) => io.out(JSON.stringify({ ts: new Date().toISOString(), message }));
  let revoked: () => void = () => undefined;
  const revocation = new Promise<void>((resolve) => (revoked = resolve));
  let node: SvcNode;
  try {
    node = await SvcNode.start({ config, log, onRevoked: () => revoked() });
  } catch (error) {
    io.err(`svc-node: cannot start: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
  let current = config;
  io.onReloadRequest(() => {
    loadNodeConfig(path, io.environment)
      .then(async (next) => {
        const needsRestart = await node.reload(current, next);
        current = next;
        log(
          `configuration reloaded${needsRestart.length === 0 ? '' : `; restart to apply ${needsRestart.join(', ')}`}`,
        );
      })
      // A configuration that does not load leaves the one in force running.
      .catch((error: Error) => log(`configuration not reloaded: ${error.message}`));
  });
  const outcome = await Promise.race([
    io.stopRequested.then(() => 'stop' as const),
    revocation.then(() => 'revoked' as const),
  ]);
  if (outcome === 'revoked') return EXIT.failed;
  await node.stop();
  return EXIT.ok;
}
