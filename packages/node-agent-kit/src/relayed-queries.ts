import type { ServerMessage } from './agent-link.js';
import { type QueryHandler, UnsupportedShapeError } from './node-agent.options.js';

/** What answers go through. */
export interface AnswerLink {
  readonly maxMessageBytes: number;
  send(message: object): void;
}

/**
 * The queries the API relays to the node (`query`, `cancel`): each is answered through the handler with a
 * signal that aborts on `cancel` or a dropped link; an answer no link message holds becomes a `node_error`.
 */
export class RelayedQueries {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly handler: QueryHandler,
    private readonly link: AnswerLink,
  ) {}

  /** The API gave up on a query (its 10 s time-out): the handler's signal aborts. */
  cancel(id: string): void {
    this.running.get(id)?.abort();
    this.running.delete(id);
  }

  /** The link dropped or the agent stopped: every query running aborts, no answer is sent. */
  abortAll(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }

  /** Answers a `query` message with `query_result`, or `query_error` when the handler fails. */
  async answer(message: ServerMessage): Promise<void> {
    const id = String(message.id);
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      const params = message.params as Record<string, unknown>;
      const result = await this.handler.answer(String(message.shape), params, controller.signal);
      if (controller.signal.aborted) return;
      const answer = { type: 'query_result', id, result };
      const maxMessageBytes = this.link.maxMessageBytes;
      // A longer message would close the link (1009): the asker gets a failure instead, the link stays.
      if (Buffer.byteLength(JSON.stringify(answer)) > maxMessageBytes) {
        this.link.send({
          type: 'query_error',
          id,
          code: 'node_error',
          detail: `the answer is larger than a link message (${maxMessageBytes} bytes): ask for fewer rows`,
        });
      } else this.link.send(answer);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.link.send(
        error instanceof UnsupportedShapeError
          ? { type: 'query_error', id, code: 'shape_unsupported', detail: error.message }
          : { type: 'query_error', id, code: 'node_error', detail: (error as Error).message },
      );
    } finally {
      this.running.delete(id);
    }
  }
}
