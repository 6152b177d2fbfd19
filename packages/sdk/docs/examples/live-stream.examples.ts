import { queryRecords, type SvcClient } from '@svc/sdk';

/** live-stream.md: follow the live log until aborted, resuming across disconnects. */
export async function followLive(
  svc: SvcClient,
  id: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  let resumeFrom: string | undefined;
  for await (const event of svc.profiles.logs.stream(id, { status: 'blocked', signal })) {
    if (event.type === 'rows') {
      for (const row of queryRecords(event.result)) console.log(row.ts, row.qname);
      resumeFrom = event.cursor; // pass back as { cursor } to continue in a later process
    } else if (event.type === 'error') {
      console.warn(event.problem.code, event.transient ? '(the stream goes on)' : '(the stream ends)');
    }
  }
  return resumeFrom;
}
