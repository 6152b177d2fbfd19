import { createHash } from 'node:crypto';
import type { RunningDigest } from '@svc/domain';

/** A SHA-256 fed piece by piece (node:crypto), for the digest of a data export's archive. */
export function sha256RunningDigest(): RunningDigest {
  const hash = createHash('sha256');
  return {
    update: (bytes) => {
      hash.update(bytes);
    },
    hex: () => hash.digest('hex'),
  };
}
