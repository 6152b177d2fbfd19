import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileSigner, ProfileSigningKey } from '@svc/domain';

/** One Ed25519 private key and how it is announced. */
interface SigningKeyPair {
  privateKey: KeyObject;
  announced: ProfileSigningKey;
}

function pairOf(privateKey: KeyObject): SigningKeyPair {
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`a profile signing key must be Ed25519, not ${privateKey.asymmetricKeyType}`);
  }
  // The raw public key is the last 32 bytes of its SPKI DER encoding.
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  const keyId = createHash('sha256').update(raw).digest('base64url').slice(0, 16);
  return { privateKey, announced: { keyId, publicKey: raw.toString('base64') } };
}

/**
 * Ed25519 keys of SVC_PROFILE_SIGNING_KEYS: a comma-separated list of PKCS#8 private keys, each PEM
 * (`-----BEGIN PRIVATE KEY-----…`) or the base64 of its DER. The first signs; the others are announced only.
 */
export function parseProfileSigningKeys(setting: string): KeyObject[] {
  return setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) =>
      entry.startsWith('-----BEGIN')
        ? createPrivateKey({ key: entry, format: 'pem' })
        : createPrivateKey({ key: Buffer.from(entry, 'base64'), format: 'der', type: 'pkcs8' }),
    );
}

/** A fresh Ed25519 private key (development servers without a data dir, tests). */
export function generateProfileSigningKey(): KeyObject {
  return generateKeyPairSync('ed25519').privateKey;
}

/**
 * The development signing key: generated once and kept in `<dataDir>/profile-signing-key.pem` (owner-only), so
 * enrolled nodes keep trusting documents across restarts. Production sets SVC_PROFILE_SIGNING_KEYS instead.
 */
export async function loadOrCreateDevelopmentSigningKey(dataDir: string): Promise<KeyObject> {
  const path = join(dataDir, 'profile-signing-key.pem');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const read = () =>
    readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  const existing = await read();
  if (existing?.includes('PRIVATE KEY') === true) return createPrivateKey(existing);
  const pem = generateProfileSigningKey().export({ format: 'pem', type: 'pkcs8' }).toString();
  try {
    // Exclusive create: of two processes creating it at once, one writes and the other reads what it wrote.
    await writeFile(path, pem, { mode: 0o600, flag: 'wx' });
    return createPrivateKey(pem);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await read();
    if (written === undefined) throw new Error(`${path} exists but holds no key`, { cause: error });
    return createPrivateKey(written);
  }
}

/** Signs node profile documents with Ed25519 (node:crypto); no keys means not signing. */
export class Ed25519ProfileSigner implements ProfileSigner {
  private readonly pairs: SigningKeyPair[];

  constructor(privateKeys: readonly KeyObject[]) {
    this.pairs = privateKeys.map(pairOf);
  }

  keys(): readonly ProfileSigningKey[] {
    return this.pairs.map((pair) => pair.announced);
  }

  sign(payload: string): { signature: string; key: ProfileSigningKey } | null {
    const signing = this.pairs[0];
    if (signing === undefined) return null;
    const signature = sign(null, Buffer.from(payload, 'utf8'), signing.privateKey).toString('base64');
    return { signature, key: signing.announced };
  }
}
