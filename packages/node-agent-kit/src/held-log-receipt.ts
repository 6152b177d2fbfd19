import type { ServerMessage } from './agent-link.js';
import type { HeldLogRow } from './log-batches.js';
import type { NodeAgentOptions } from './node-agent.options.js';

/** What held rows arrive on and are acknowledged through. */
export interface HeldLogLink {
  /** The connection in use: rows are acknowledged only on the one that delivered them. */
  readonly connection: object | null;
  send(message: object): void;
}

/**
 * The rows the cloud answered for the profile while the node was offline (`held_logs`): handed to
 * `onHeldLogs` in arrival order, one message at a time, each acknowledged (`held_logs_ack`) once handled.
 */
export class HeldLogReceipt {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: Pick<NodeAgentOptions, 'onHeldLogs'>,
    private readonly link: HeldLogLink,
  ) {}

  receive(message: ServerMessage): void {
    const handler = this.options.onHeldLogs;
    const held = Array.isArray(message.rows) ? (message.rows as { seq: string; row: HeldLogRow }[]) : [];
    const last = held.at(-1);
    if (handler === undefined || last === undefined) return;
    const connection = this.link.connection;
    this.queue = this.queue.then(async () => {
      try {
        await handler(held.map((entry) => entry.row));
      } catch {
        // Not acknowledged: the API sends these rows again on the next link.
        return;
      }
      // Only on the link that delivered them: a newer link gets them again from the API.
      if (this.link.connection === connection) this.link.send({ type: 'held_logs_ack', seq: last.seq });
    });
  }
}
