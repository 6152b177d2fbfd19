import { z } from 'zod';
import { DomainError } from '../shared/domain-error.js';

/**
 * EDNS Client Subnet (RFC 7871) as the resolver forwards it upstream (spec 2.3, settings.ecs).
 *
 * The address helpers are plain TypeScript over byte arrays because the domain may not import node:net; they
 * parse strictly (no zone ids, no IPv4 shorthands or leading zeros) and print the canonical text form: dotted
 * decimal for IPv4, RFC 5952 for IPv6 (lower case, leading zeros dropped, the longest run of two or more zero
 * groups as `::`, the first on a tie, and IPv4-mapped addresses in mixed notation `::ffff:192.0.2.1`).
 */

/** An address family as ECS numbers it in prose: 4 or 6 (on the wire IANA family 1 or 2). */
export type IpFamily = 4 | 6;

/** A parsed address: 4 bytes for IPv4, 16 for IPv6, network byte order. */
export interface IpAddress {
  family: IpFamily;
  bytes: Uint8Array;
}

/** Number of address bits of a family: the widest prefix it has. */
function addressBits(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

const DECIMAL_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/**
 * Parses dotted-decimal IPv4 (`192.0.2.1`). Refuses the shorthands some parsers accept (`127.1`, `0x7f.0.0.1`)
 * and leading zeros (`010.0.0.1`, read as octal by some), so one text means one address everywhere.
 */
export function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!DECIMAL_OCTET.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[index] = value;
  }
  return bytes;
}

/** Parses IPv6 text (RFC 4291 2.2): eight groups, one optional `::`, an optional trailing dotted IPv4. */
export function parseIpv6(text: string): Uint8Array | null {
  // The longest form is eight full groups with the last 32 bits as dotted IPv4: 45 characters.
  if (text.length < 2 || text.length > 45) return null;
  const gap = text.indexOf('::');
  if (gap !== -1 && text.indexOf('::', gap + 1) !== -1) return null;
  const head = gap === -1 ? text.split(':') : splitGroups(text.slice(0, gap));
  const tail = gap === -1 ? [] : splitGroups(text.slice(gap + 2));
  const groups = [...head, ...tail];
  // Dotted IPv4 may only end the text: `::1.2.3.4` yes, `1.2.3.4::` no.
  const dottedEnd = gap === -1 || tail.length > 0;
  const words: number[] = [];
  for (const [index, group] of groups.entries()) {
    if (dottedEnd && index === groups.length - 1 && group.includes('.')) {
      const v4 = parseIpv4(group);
      if (v4 === null) return null;
      words.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    } else {
      if (!HEX_GROUP.test(group)) return null;
      words.push(Number.parseInt(group, 16));
    }
  }
  // Without `::` all eight groups are written; with it, `::` stands for at least one zero group.
  if (gap === -1 ? words.length !== 8 : words.length > 7) return null;
  const headWords = gap === -1 ? words.length : wordCount(head);
  const zeros = 8 - words.length;
  const all = [...words.slice(0, headWords), ...new Array<number>(zeros).fill(0), ...words.slice(headWords)];
  const bytes = new Uint8Array(16);
  for (const [index, word] of all.entries()) {
    bytes[index * 2] = word >> 8;
    bytes[index * 2 + 1] = word & 0xff;
  }
  return bytes;
}

function splitGroups(text: string): string[] {
  return text === '' ? [] : text.split(':');
}

/** Words the groups of one side of `::` stand for: a dotted IPv4 group is two. */
function wordCount(groups: string[]): number {
  return groups.reduce((count, group) => count + (group.includes('.') ? 2 : 1), 0);
}

/** Parses either family; IPv4-mapped IPv6 (`::ffff:192.0.2.1`) stays family 6 (see {@link unmapIpv4}). */
export function parseIpAddress(text: string): IpAddress | null {
  if (text.includes(':')) {
    const bytes = parseIpv6(text);
    return bytes === null ? null : { family: 6, bytes };
  }
  const bytes = parseIpv4(text);
  return bytes === null ? null : { family: 4, bytes };
}

/** True for ::ffff:0:0/96, the IPv4-mapped range (RFC 4291 2.5.5.2). */
export function isIpv4Mapped(address: IpAddress): boolean {
  if (address.family !== 6) return false;
  for (let index = 0; index < 10; index += 1) if (address.bytes[index] !== 0) return false;
  return address.bytes[10] === 0xff && address.bytes[11] === 0xff;
}

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address, or the address unchanged. A dual-stack socket reports
 * an IPv4 client as `::ffff:a.b.c.d`; that client is an IPv4 client.
 */
export function unmapIpv4(address: IpAddress): IpAddress {
  return isIpv4Mapped(address) ? { family: 4, bytes: address.bytes.slice(12) } : address;
}

/** Dotted decimal. */
function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes).join('.');
}

/** RFC 5952 text of 16 bytes. */
function formatIpv6(bytes: Uint8Array): string {
  if (isIpv4Mapped({ family: 6, bytes })) return `::ffff:${formatIpv4(bytes.slice(12))}`;
  const words = Array.from(
    { length: 8 },
    (_, index) => ((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0),
  );
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < 8; ) {
    if (words[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < 8 && words[end] === 0) end += 1;
    // RFC 5952 4.2.2: a single zero group is never shortened; 4.2.3: the first of equal runs wins.
    if (end - start >= 2 && end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = words.map((word) => word.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Canonical text of an address. */
export function formatIpAddress(address: IpAddress): string {
  return address.family === 4 ? formatIpv4(address.bytes) : formatIpv6(address.bytes);
}

/** The canonical text of an address given as text, or null when it is not an address. */
export function normaliseIpAddress(text: string): string | null {
  const address = parseIpAddress(text);
  return address === null ? null : formatIpAddress(address);
}

/** The network of `address` at `prefix` bits: every host bit zero. `prefix` is clamped to the family. */
export function maskIpAddress(address: IpAddress, prefix: number): IpAddress {
  const bits = Math.max(0, Math.min(prefix, addressBits(address.family)));
  const bytes = address.bytes.map((byte, index) => {
    const kept = Math.max(0, Math.min(8, bits - index * 8));
    return kept === 0 ? 0 : byte & ((0xff << (8 - kept)) & 0xff);
  });
  return { family: address.family, bytes };
}

/** Values of settings.ecs (spec 2.3). */
const ECS_MODES = ['off', 'anonymised', 'full'] as const;

/** settings.ecs: how much of the client's address the resolver reveals to upstream servers. */
export const EcsMode = z
  .enum(ECS_MODES)
  .default('off')
  .meta({
    description:
      'EDNS Client Subnet sent upstream. `off` (default) sends an explicit /0 opt-out; `anonymised` sends the ' +
      "client's network truncated to /24 (IPv4) or /56 (IPv6); `full` sends the client address itself (/32, " +
      "/128) unless the operator caps it lower. A client's own ECS option is forwarded no wider than the mode " +
      'allows, and its /0 opt-out is always honoured.',
  });
export type EcsMode = z.infer<typeof EcsMode>;

/** Prefix lengths of the `anonymised` mode (spec 2.3). */
const ECS_ANONYMISED_PREFIX = { v4: 24, v6: 56 } as const;

/**
 * The operator's ceiling on forwarded prefix lengths, per family. It bounds every mode: a mode never reveals
 * more than the operator allows, so with a v4 cap of 20 even `anonymised` sends /20.
 */
export const EcsOperatorCap = z
  .object({
    v4: z.int().min(0).max(32).default(32).meta({ description: 'Longest IPv4 prefix forwarded, 0 to 32.' }),
    v6: z
      .int()
      .min(0)
      .max(128)
      .default(128)
      .meta({ description: 'Longest IPv6 prefix forwarded, 0 to 128.' }),
  })
  .meta({ description: 'Longest ECS source prefixes the resolver forwards upstream.' });
export type EcsOperatorCap = z.infer<typeof EcsOperatorCap>;

/** No cap: /32 and /128. */
export const ECS_OPERATOR_CAP_DEFAULT: EcsOperatorCap = { v4: 32, v6: 128 };

/** An ECS option: the subnet a client sends, or the one the resolver forwards (address in canonical text). */
export interface EcsSubnet {
  family: IpFamily;
  sourcePrefix: number;
  address: string;
}

/** What {@link forwardedEcs} decides from. */
export interface EcsForwardingInput {
  mode: EcsMode;
  /** Address of the client's connection; IPv4-mapped IPv6 counts as IPv4. */
  clientAddress: string;
  /** The ECS option the client sent, if any. */
  clientOption: EcsSubnet | null;
  /** Defaults to {@link ECS_OPERATOR_CAP_DEFAULT}. */
  operatorCap?: EcsOperatorCap;
}

/** The longest source prefix `mode` forwards for `family` under `cap`. */
export function ecsModePrefix(
  mode: EcsMode,
  family: IpFamily,
  cap: EcsOperatorCap = ECS_OPERATOR_CAP_DEFAULT,
): number {
  const ceiling = family === 4 ? cap.v4 : cap.v6;
  switch (mode) {
    case 'off':
      return 0;
    case 'anonymised':
      return Math.min(family === 4 ? ECS_ANONYMISED_PREFIX.v4 : ECS_ANONYMISED_PREFIX.v6, ceiling);
    case 'full':
      return Math.min(addressBits(family), ceiling);
  }
}

/**
 * The ECS option the resolver forwards upstream (spec 2.3). Always an option, never "none": `off` is an
 * explicit /0 so upstream servers do not fall back to the resolver's own address.
 *
 * - Without a client option the subnet is the connection address cut to the mode's prefix.
 * - With a client option the subnet is the option's address cut to min(option prefix, mode prefix): the
 *   option's address, not the connection's, because it names the network the client asked answers for (a
 *   forwarder's clients, say). Its family is the option's, with that family's limits, also when the
 *   connection is of the other family (an IPv4 option over IPv6 is capped at /24 in `anonymised`).
 * - A client /0 is an opt-out and is forwarded as /0 in every mode.
 * - A /0 subnet names the family with the all-zero address (`0.0.0.0`, `::`).
 *
 * Throws DomainError validation_failed (fields `client_address`, `ecs.family`, `ecs.source_prefix`,
 * `ecs.address`, `operator_cap`) for input that is not an address, prefix or cap; a resolver answers a
 * malformed client option with FORMERR (RFC 7871 7.1.1).
 */
export function forwardedEcs(input: EcsForwardingInput): EcsSubnet {
  const cap = input.operatorCap ?? ECS_OPERATOR_CAP_DEFAULT;
  if (!isPrefix(cap.v4, 4) || !isPrefix(cap.v6, 6)) {
    throw invalidEcsInput('operator_cap', 'must be whole numbers: v4 0 to 32, v6 0 to 128');
  }
  const connection = parseIpAddress(input.clientAddress);
  if (connection === null) throw invalidEcsInput('client_address', 'must be an IPv4 or IPv6 address');
  const option = input.clientOption;
  if (option === null) {
    const client = unmapIpv4(connection);
    return subnet(client, ecsModePrefix(input.mode, client.family, cap));
  }
  const requested = parseClientOption(option);
  return subnet(requested, Math.min(option.sourcePrefix, ecsModePrefix(input.mode, option.family, cap)));
}

function parseClientOption(option: EcsSubnet): IpAddress {
  if (option.family !== 4 && option.family !== 6) throw invalidEcsInput('ecs.family', 'must be 4 or 6');
  if (!isPrefix(option.sourcePrefix, option.family)) {
    throw invalidEcsInput(
      'ecs.source_prefix',
      `must be a whole number from 0 to ${addressBits(option.family)}`,
    );
  }
  const bytes = option.family === 4 ? parseIpv4(option.address) : parseIpv6(option.address);
  if (bytes === null) throw invalidEcsInput('ecs.address', `must be an IPv${option.family} address`);
  return { family: option.family, bytes };
}

function subnet(address: IpAddress, prefix: number): EcsSubnet {
  return {
    family: address.family,
    sourcePrefix: prefix,
    address: formatIpAddress(maskIpAddress(address, prefix)),
  };
}

function isPrefix(value: number, family: IpFamily): boolean {
  return Number.isInteger(value) && value >= 0 && value <= addressBits(family);
}

function invalidEcsInput(field: string, message: string): DomainError {
  return new DomainError('validation_failed', 'The ECS input is invalid.', {
    fieldErrors: [{ field, message }],
  });
}
