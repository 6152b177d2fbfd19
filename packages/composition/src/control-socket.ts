import { chmod, mkdir, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/** The owner-only socket through which storage commands reach a server holding the embedded engines. */
export function controlSocketPath(dataDir: string): string {
  return join(dataDir, 'svc.sock');
}

/** A storage command the server runs for a CLI process: JSON arguments in, JSON result out. */
export type ControlCommand = (args: Record<string, unknown>) => Promise<unknown>;

/** One request line on the control socket. */
interface ControlRequest {
  command: string;
  args?: Record<string, unknown>;
}

/** One answer line. */
export type ControlAnswer =
  | { ok: true; result: unknown; pid: number }
  | { ok: false; error: string; pid: number };

/** Thrown when another server already holds the data dir's engines. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string) {
    super(`another svc server already holds the embedded engines of ${dataDir}`);
    this.name = 'DataDirInUseError';
  }
}

/** Calls `onLine` with the first newline-terminated line read from `socket`. */
function readLine(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const end = buffered.indexOf('\n');
    if (end >= 0) {
      socket.off('data', onData);
      onLine(buffered.slice(0, end));
    }
  };
  socket.on('data', onData);
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Sends one command to the server holding `dataDir`. Resolves undefined when no server listens there (no
 * socket, or a stale one left by a crash).
 */
export function sendControlCommand(
  dataDir: string,
  command: string,
  args: Record<string, unknown> = {},
): Promise<ControlAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(controlSocketPath(dataDir));
    let answered = false;
    socket.once('error', (error) => {
      const code = errorCode(error);
      if (!answered && (code === 'ENOENT' || code === 'ECONNREFUSED')) resolve(undefined);
      else reject(error);
    });
    socket.once('connect', () =>
      socket.write(`${JSON.stringify({ command, args } satisfies ControlRequest)}\n`),
    );
    readLine(socket, (line) => {
      answered = true;
      socket.end();
      resolve(JSON.parse(line) as ControlAnswer);
    });
  });
}

/**
 * Listens on the control socket of `dataDir` (mode 0600 in a 0700 directory: only the owner can connect) and
 * runs the named commands. Refuses to start when a live server already listens there; removes a stale socket.
 */
export async function startControlSocket(
  dataDir: string,
  commands: ReadonlyMap<string, ControlCommand>,
): Promise<{ close(): Promise<void> }> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = controlSocketPath(dataDir);
  if ((await sendControlCommand(dataDir, 'ping')) !== undefined) throw new DataDirInUseError(dataDir);
  await unlink(path).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
  const server: Server = createServer((socket) => {
    readLine(socket, (line) => {
      void answer(line).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
    socket.on('error', () => socket.destroy());
  });
  const answer = async (line: string): Promise<ControlAnswer> => {
    try {
      const request = JSON.parse(line) as ControlRequest;
      if (request.command === 'ping') return { ok: true, result: 'pong', pid: process.pid };
      const command = commands.get(request.command);
      if (command === undefined)
        return { ok: false, error: `unknown command ${request.command}`, pid: process.pid };
      return { ok: true, result: await command(request.args ?? {}), pid: process.pid };
    } catch (error) {
      return {
        ok: false,
        error: error instanceof Error ? error.message : 'command failed',
        pid: process.pid,
      };
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
