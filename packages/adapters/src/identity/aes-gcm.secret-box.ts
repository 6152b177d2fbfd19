import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '@svc/domain';

const VERSION = 'v1';

/**
 * AES-256-GCM with a key derived from the server secret by HKDF (its own purpose), a fresh 96-bit nonce per
 * seal, and the tag checked on open: `v1.<nonce>.<ciphertext>.<tag>` in base64url.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'svc', 'svc:secret-box', 32));
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, body, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, nonce, body, tag] = sealed.split('.');
    if (version !== VERSION || nonce === undefined || body === undefined || tag === undefined) {
      throw new Error('not a sealed value of this server');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
