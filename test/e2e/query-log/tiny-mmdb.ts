/**
 * Writes a tiny MaxMind DB (format 2.0, https://maxmind.github.io/MaxMind-DB/) of IPv4 prefixes mapped to
 * country codes, shaped like GeoLite2-Country records (`{country: {iso_code}}`). No maintained writer exists in
 * the npm registry; this covers only what the tests need: an IPv4 tree, 24-bit records, maps and strings.
 */

/** Field encodings of the data section (type in the top 3 bits of the control byte, size below). */
function encodeString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length >= 29) throw new Error('strings of the test database stay short');
  return Buffer.concat([Buffer.from([(2 << 5) | bytes.length]), bytes]);
}

function encodeUnsigned(type: 5 | 6, value: number): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.concat([Buffer.from([(type << 5) | bytes.length]), Buffer.from(bytes)]);
}

function encodeUint64(value: number): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  // Extended type: 0 in the type bits, then the type minus 7 (uint64 is 9).
  return Buffer.concat([Buffer.from([bytes.length, 9 - 7]), Buffer.from(bytes)]);
}

type Value =
  | string
  | { uint16: number }
  | { uint32: number }
  | { uint64: number }
  | Value[]
  | { [key: string]: Value };

function encode(value: Value): Buffer {
  if (typeof value === 'string') return encodeString(value);
  if (Array.isArray(value)) {
    // Extended type array (11).
    return Buffer.concat([Buffer.from([value.length, 11 - 7]), ...value.map(encode)]);
  }
  if ('uint16' in value && typeof value.uint16 === 'number') return encodeUnsigned(5, value.uint16);
  if ('uint32' in value && typeof value.uint32 === 'number') return encodeUnsigned(6, value.uint32);
  if ('uint64' in value && typeof value.uint64 === 'number') return encodeUint64(value.uint64);
  const entries = Object.entries(value as Record<string, Value>);
  return Buffer.concat([
    Buffer.from([(7 << 5) | entries.length]),
    ...entries.flatMap(([key, member]) => [encodeString(key), encode(member)]),
  ]);
}

/** A database mapping each IPv4 prefix (`a.b.c.d/n`) to its country code. */
export function tinyCountryDatabase(
  prefixes: Record<string, string>,
  databaseType = 'GeoLite2-Country',
): Buffer {
  // The search tree: node i has children [left, right]; -1 is empty, `data:<n>` points at record n.
  const nodes: (number | string)[][] = [[-1, -1]];
  const records: Buffer[] = [];
  for (const [cidr, country] of Object.entries(prefixes)) {
    const [address, bitsText] = cidr.split('/');
    const value = (address ?? '').split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
    const bits = Number(bitsText);
    let node = 0;
    for (let depth = 0; depth < bits - 1; depth += 1) {
      const bit = Math.floor(value / 2 ** (31 - depth)) % 2;
      const current = nodes[node] as (number | string)[];
      if (typeof current[bit] !== 'number' || current[bit] === -1) {
        nodes.push([-1, -1]);
        current[bit] = nodes.length - 1;
      }
      node = current[bit] as number;
    }
    const last = Math.floor(value / 2 ** (32 - bits)) % 2;
    (nodes[node] as (number | string)[])[last] = `data:${records.length}`;
    records.push(encode({ country: { iso_code: country } }));
  }
  const nodeCount = nodes.length;
  const offsets: number[] = [];
  let offset = 0;
  for (const record of records) {
    offsets.push(offset);
    offset += record.length;
  }
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((children, index) => {
    children.forEach((child, side) => {
      const pointer =
        child === -1
          ? nodeCount
          : typeof child === 'string'
            ? nodeCount + 16 + (offsets[Number(child.slice(5))] as number)
            : child;
      tree.writeUIntBE(pointer, index * 6 + side * 3, 3);
    });
  });
  const metadata = encode({
    binary_format_major_version: { uint16: 2 },
    binary_format_minor_version: { uint16: 0 },
    build_epoch: { uint64: 1_795_000_000 },
    database_type: databaseType,
    description: { en: 'svc tests' },
    ip_version: { uint16: 4 },
    languages: ['en'],
    node_count: { uint32: nodeCount },
    record_size: { uint16: 24 },
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...records,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    metadata,
  ]);
}
