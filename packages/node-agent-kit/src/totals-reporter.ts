import { randomUUID } from 'node:crypto';
import type { ServerMessage } from './agent-link.js';
import type { HourlyTotals, HourTotals } from './hourly-totals.js';
import type { SendLane } from './link-pacer.js';

/** What totals are sent through. */
export interface TotalsLink {
  readonly connected: boolean;
  send(message: object, lane: SendLane): void;
}

/**
 * Sends the node's hourly totals (`hourly_totals`) every interval and after each welcome, and marks those the
 * API settled (`hourly_totals_ack`) as acknowledged so that they are not sent again.
 */
export class TotalsReporter {
  private timer: NodeJS.Timeout | undefined;
  /** Hourly totals sent and not settled yet, by message id. */
  private readonly sent = new Map<string, HourTotals[]>();

  constructor(
    private readonly totals: HourlyTotals | undefined,
    private readonly intervalMs: number,
    private readonly link: TotalsLink,
  ) {}

  /** Sends the totals the API has not acknowledged as they are now (each message at most 48 hours). */
  send(): void {
    const totals = this.totals;
    if (totals === undefined || !this.link.connected) return;
    const pending = totals.pending();
    if (pending.length === 0) return;
    const id = randomUUID();
    this.sent.set(id, pending);
    this.link.send({ type: 'hourly_totals', id, run: totals.run, totals: pending }, 'bulk');
  }

  /** A new link: totals sent on the dropped one are sent again (the API adds only what grew). */
  resend(): void {
    this.sent.clear();
    this.send();
  }

  /** Sends every interval from now on. */
  start(): void {
    if (this.totals === undefined || this.timer !== undefined) return;
    this.timer = setInterval(() => this.send(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The API settled hourly totals: acknowledged ones are not sent again. */
  settled(message: ServerMessage): void {
    const sent = this.sent.get(String(message.id));
    this.sent.delete(String(message.id));
    if (sent !== undefined && (message.outcome === 'stored' || message.outcome === 'not_kept'))
      this.totals?.acknowledge(sent);
  }
}
