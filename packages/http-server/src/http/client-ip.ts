import { isIP } from 'node:net';

/** The caller's address in canonical form: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is reported as IPv4. */
export function canonicalIp(address: string | undefined): string {
  if (address === undefined || address === '') return '0.0.0.0';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** 4 or 6 for a literal address. */
export function ipVersion(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}
