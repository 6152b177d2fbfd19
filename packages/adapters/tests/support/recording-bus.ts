import type { BusDelivery, BusSubscription, MessageBus } from '@svc/domain';

/** A bus that records what is published and can be told to fail the next publishes (fault injection). */
export class RecordingBus implements MessageBus {
  readonly published: BusDelivery[] = [];
  private failures = 0;

  failNext(count: number): void {
    this.failures = count;
  }

  async publish(subject: string, payload: unknown, options: { messageId?: string } = {}): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('bus unavailable');
    }
    this.published.push({ subject, payload, ...options });
  }

  async subscribe(): Promise<BusSubscription> {
    throw new Error('RecordingBus only records publishes');
  }

  async close(): Promise<void> {}
}
