/** One server-sent event as received (comments are left out). */
export interface ServerSentEvent {
  event: string;
  id: string | undefined;
  data: string;
}

/** Splits a text/event-stream body into events (WHATWG rules for the fields this API sends). */
export async function* serverSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let split = buffer.indexOf('\n\n');
    while (split >= 0) {
      const event = parseBlock(buffer.slice(0, split));
      buffer = buffer.slice(split + 2);
      if (event !== null) yield event;
      split = buffer.indexOf('\n\n');
    }
  }
}

function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    fields += 1;
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return fields === 0 ? null : { event, id, data: data.join('\n') };
}
