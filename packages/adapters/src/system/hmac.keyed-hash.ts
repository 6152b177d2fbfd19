import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { KeyedHash } from '@svc/domain';

/**
 * HMAC-SHA-256 under keys derived from the server secret with HKDF, one key per purpose, so that a MAC made
 * for cursors can never stand in for a token hash.
 */
export class HmacKeyedHash implements KeyedHash {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secret: string) {}

  private keyFor(purpose: string): Buffer {
    let key = this.keys.get(purpose);
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', this.secret, 'svc', `svc:${purpose}`, 32));
      this.keys.set(purpose, key);
    }
    return key;
  }

  mac(purpose: string, data: string): string {
    return createHmac('sha256', this.keyFor(purpose)).update(data, 'utf8').digest('base64url');
  }

  verify(purpose: string, data: string, presentedMac: string): boolean {
    const expected = Buffer.from(this.mac(purpose, data), 'utf8');
    const presented = Buffer.from(presentedMac, 'utf8');
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  }

  sha256(data: string): string {
    return createHash('sha256').update(data, 'utf8').digest('hex');
  }
}
