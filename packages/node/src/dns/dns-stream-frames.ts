/**
 * DNS messages on a stream (TCP, TLS): each one preceded by its length on two octets (RFC 1035 4.2.2,
 * RFC 7766 8). The reader collects what arrives in pieces and hands out whole messages.
 */
export class DnsFrameReader {
  private pending: Buffer = Buffer.alloc(0);

  /** The messages completed by `chunk`, in the order they were sent. */
  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: Buffer[] = [];
    while (this.pending.length >= 2) {
      const end = 2 + this.pending.readUInt16BE(0);
      if (this.pending.length < end) break;
      messages.push(this.pending.subarray(2, end));
      this.pending = this.pending.subarray(end);
    }
    return messages;
  }

  /** Octets received of a message not yet complete. */
  get buffered(): number {
    return this.pending.length;
  }
}

/** A message with its two-octet length before it, ready to write to a stream. */
export function framed(message: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(message.length, 0);
  return Buffer.concat([length, message]);
}
