/** What the server lets one link send a second (the welcome's `budget`). */
export interface LinkPace {
  bytesPerSecond: number;
  messagesPerSecond: number;
}

/**
 * The share of the server's budget the kit uses: the server meters arrivals, not sends, and a network that
 * holds messages back then delivers them together would otherwise show the server a burst the kit never sent.
 */
const SHARE_OF_BUDGET = 0.8;

/** Which messages go first: answers and acknowledgements wait for no log batch. */
export type SendLane = 'control' | 'bulk';

/**
 * Keeps a link's sends within the budget the server announced (docs/node-link-protocol.md, "Sizes and
 * budget"): the same token buckets as the server's meter, at {@link SHARE_OF_BUDGET} of its rates and burst,
 * and control messages (hello, heartbeats, query answers, acknowledgements) ahead of log batches. Without a
 * pace (before the welcome, or a server that announces none) messages go out at once. A message never fits
 * when the burst is smaller than it: it is sent once the buckets are full.
 */
export class LinkPacer {
  private readonly lanes: Record<SendLane, string[]> = { control: [], bulk: [] };
  private pace: LinkPace | undefined;
  private bytes = 0;
  private messages = 0;
  private lastMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly write: (text: string) => void) {}

  /** Starts pacing at `pace` (a new link), with full buckets; undefined sends at once. */
  setPace(pace: LinkPace | undefined): void {
    this.pace =
      pace === undefined
        ? undefined
        : {
            bytesPerSecond: pace.bytesPerSecond * SHARE_OF_BUDGET,
            messagesPerSecond: pace.messagesPerSecond * SHARE_OF_BUDGET,
          };
    this.bytes = this.pace?.bytesPerSecond ?? 0;
    this.messages = this.pace?.messagesPerSecond ?? 0;
    this.lastMs = performance.now();
    this.drain();
  }

  send(text: string, lane: SendLane): void {
    this.lanes[lane].push(text);
    this.drain();
  }

  /** Drops what is waiting (the link closed: batches are sent again after the next welcome). */
  clear(): void {
    this.lanes.control.length = 0;
    this.lanes.bulk.length = 0;
    this.pace = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private drain(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      const lane = this.lanes.control.length > 0 ? this.lanes.control : this.lanes.bulk;
      const next = lane[0];
      if (next === undefined) return;
      const pace = this.pace;
      if (pace === undefined) {
        lane.shift();
        this.write(next);
        continue;
      }
      const size = Buffer.byteLength(next);
      const waitMs = this.refillAndWait(pace, size);
      if (waitMs > 0) {
        this.timer = setTimeout(() => this.drain(), waitMs);
        return;
      }
      lane.shift();
      this.bytes -= size;
      this.messages -= 1;
      this.write(next);
    }
  }

  /** Refills both buckets to now; returns how long until `size` bytes and one message are there (0: now). */
  private refillAndWait(pace: LinkPace, size: number): number {
    const now = performance.now();
    const elapsed = Math.max(0, now - this.lastMs) / 1000;
    this.lastMs = now;
    this.bytes = Math.min(pace.bytesPerSecond, this.bytes + elapsed * pace.bytesPerSecond);
    this.messages = Math.min(pace.messagesPerSecond, this.messages + elapsed * pace.messagesPerSecond);
    const bytesNeeded = Math.min(size, pace.bytesPerSecond) - this.bytes;
    const messagesNeeded = 1 - this.messages;
    return Math.max(
      0,
      Math.ceil((bytesNeeded / pace.bytesPerSecond) * 1000),
      Math.ceil((messagesNeeded / pace.messagesPerSecond) * 1000),
    );
  }
}

/** The welcome's `budget`, when it announced a well-formed one. */
export function paceOf(budget: unknown): LinkPace | undefined {
  if (typeof budget !== 'object' || budget === null) return undefined;
  const { bytes_per_s: bytes, messages_per_s: messages } = budget as Record<string, unknown>;
  if (typeof bytes !== 'number' || typeof messages !== 'number' || bytes <= 0 || messages <= 0)
    return undefined;
  return { bytesPerSecond: bytes, messagesPerSecond: messages };
}
