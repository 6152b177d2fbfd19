import { pathToFileURL } from 'node:url';
import { createClient, isApiError, type QueryStatus, queryRecords, type SvcClient } from '@svc/sdk';

/** What to follow and where lines go. */
export interface TailOptions {
  /** Only queries of this status (`blocked`, `allowed`, …). */
  status?: QueryStatus;
  /** Resume after this cursor (a cursor printed by an earlier run) instead of starting with the latest rows. */
  cursor?: string;
  /** Stops the tail. */
  signal?: AbortSignal;
  /** Receives each line; default: standard output. */
  write?: (line: string) => void;
}

const STATUSES: readonly string[] = ['allowed', 'blocked', 'rewritten', 'error'] satisfies QueryStatus[];

function isStatus(value: string): value is QueryStatus {
  return STATUSES.includes(value);
}

/** One log row as a line: time, status, name, type and device. */
export function formatRow(row: Record<string, unknown>): string {
  const device = row.device_name ?? row.device_id ?? '-';
  return `${String(row.ts)}  ${String(row.status).padEnd(9)} ${String(row.qname)}  type ${String(row.qtype)}  ${String(device)}`;
}

/**
 * Follows a profile's live query log (`GET /v1/profiles/{id}/logs/stream`) and writes one line per query,
 * oldest first within each batch. The SDK reconnects by itself with Last-Event-ID when the connection
 * drops, so nothing is missed or repeated. Returns the last cursor, to resume from in a later run.
 */
export async function tailLogs(
  svc: SvcClient,
  profileId: string,
  options: TailOptions = {},
): Promise<string | undefined> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  let cursor = options.cursor;
  const stream = svc.profiles.logs.stream(profileId, {
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(cursor === undefined ? {} : { cursor }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  for await (const event of stream) {
    if (event.type === 'rows') {
      // Rows come newest first; a terminal reads better oldest first.
      for (const row of queryRecords(event.result).reverse()) write(formatRow(row));
      cursor = event.cursor ?? cursor;
    } else if (event.type === 'error') {
      write(`# ${event.problem.code}: ${event.problem.detail ?? event.problem.title ?? ''}`);
    } else {
      write(`# partial answer: ${event.partial_reason}`);
    }
  }
  return cursor;
}

/** `node --import tsx src/tail-logs.ts PROFILE_ID [STATUS]`; Ctrl-C stops and prints the cursor to resume. */
async function main(): Promise<void> {
  const [profileId, status] = process.argv.slice(2);
  const baseUrl = process.env.SVC_BASE_URL;
  const token = process.env.SVC_TOKEN;
  if (
    profileId === undefined ||
    baseUrl === undefined ||
    token === undefined ||
    (status !== undefined && !isStatus(status))
  ) {
    process.stderr.write(
      `usage: SVC_BASE_URL=… SVC_TOKEN=… tail-logs.ts PROFILE_ID [${STATUSES.join('|')}]\n`,
    );
    process.exitCode = 2;
    return;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  try {
    const cursor = await tailLogs(createClient({ baseUrl, token }), profileId, {
      ...(status === undefined ? {} : { status }),
      ...(process.env.SVC_CURSOR === undefined ? {} : { cursor: process.env.SVC_CURSOR }),
      signal: stop.signal,
    });
    if (cursor !== undefined) process.stderr.write(`resume with SVC_CURSOR=${cursor}\n`);
  } catch (error) {
    if (isApiError(error))
      process.stderr.write(`${error.status} ${error.code} (request ${error.requestId})\n`);
    else process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
