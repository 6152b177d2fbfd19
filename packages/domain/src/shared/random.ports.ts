/** Randomness and identifiers; the adapter draws from a CSPRNG. */
export const Random = Symbol.for('svc.Random');
export interface Random {
  /** A fresh RFC 9562 version 4 uuid. */
  uuid(): string;
  /** `length` bytes from a cryptographically secure generator. */
  bytes(length: number): Uint8Array;
}
