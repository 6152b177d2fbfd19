import { request } from 'undici';

/** One server-sent event, or a comment line (`comment` set, the rest empty). */
export interface StreamEvent {
  event: string;
  id: string | undefined;
  data: string;
  comment: string | undefined;
}

/** An open event stream read event by event; `next` answers null once the server ended it. */
export interface OpenStream {
  status: number;
  headers: Record<string, string>;
  /** The whole body when the answer is not a stream (a problem document). */
  text(): Promise<string>;
  next(waitMs?: number): Promise<StreamEvent | null>;
  close(): void;
}

/** Opens `url` as an event stream with `headers`. */
export async function openEventStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const controller = new AbortController();
  const answer = await request(url, { headers, signal: controller.signal });
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const chunks = answer.body[Symbol.asyncIterator]();
  const pending: StreamEvent[] = [];
  let buffer = '';
  let ended = false;
  // A read that lost a race against the wait stays the next read: its chunk must not be dropped.
  let inflight: Promise<IteratorResult<unknown>> | null = null;

  const parse = (block: string): StreamEvent => {
    const event: StreamEvent = { event: 'message', id: undefined, data: '', comment: undefined };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) event.comment = line.slice(1).trim();
      else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.event = value;
        else if (field === 'id') event.id = value;
        else if (field === 'data') data.push(value);
      }
    }
    event.data = data.join('\n');
    return event;
  };

  return {
    status: answer.statusCode,
    headers: flat,
    text: () => answer.body.text(),
    async next(waitMs = 10_000) {
      const deadline = Date.now() + waitMs;
      while (pending.length === 0 && !ended) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${waitMs} ms`);
        inflight ??= chunks.next();
        const chunk = await Promise.race([
          inflight,
          new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), left).unref()),
        ]);
        if (chunk === 'late') throw new Error(`no event within ${waitMs} ms`);
        inflight = null;
        if (chunk.done === true) {
          ended = true;
          break;
        }
        buffer += Buffer.from(chunk.value as Uint8Array).toString('utf8');
        let split = buffer.indexOf('\n\n');
        while (split >= 0) {
          pending.push(parse(buffer.slice(0, split)));
          buffer = buffer.slice(split + 2);
          split = buffer.indexOf('\n\n');
        }
      }
      return pending.shift() ?? null;
    },
    close() {
      controller.abort();
      answer.body.on('error', () => undefined);
    },
  };
}
