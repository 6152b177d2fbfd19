/** What one node link may send a second (SVC_NODE_LINK_BYTES_PER_SECOND, SVC_NODE_LINK_MESSAGES_PER_SECOND). */
export interface LinkBudgetLimits {
  bytesPerSecond: number;
  messagesPerSecond: number;
}

/**
 * Two token buckets, bytes and messages, each holding one second of its rate and refilled continuously: a
 * link may burst a second's worth and then keep to the rate. Every message received spends from both; a
 * message that overdraws either means the link is over budget (the hub closes it with 4005), so a node cannot
 * make the server parse, validate and write without end. Times are monotonic milliseconds.
 */
export class LinkBudgetMeter {
  private bytes: number;
  private messages: number;

  constructor(
    private readonly limits: LinkBudgetLimits,
    private lastMs: number,
  ) {
    this.bytes = limits.bytesPerSecond;
    this.messages = limits.messagesPerSecond;
  }

  /** Spends one message of `size` bytes received at `nowMs`; false when that overdraws the budget. */
  spend(size: number, nowMs: number): boolean {
    const elapsedSeconds = Math.max(0, nowMs - this.lastMs) / 1000;
    this.lastMs = nowMs;
    this.bytes = Math.min(
      this.limits.bytesPerSecond,
      this.bytes + elapsedSeconds * this.limits.bytesPerSecond,
    );
    this.messages = Math.min(
      this.limits.messagesPerSecond,
      this.messages + elapsedSeconds * this.limits.messagesPerSecond,
    );
    this.bytes -= size;
    this.messages -= 1;
    return this.bytes >= 0 && this.messages >= 0;
  }
}
