import { execFileSync } from 'node:child_process';

/** A property list value as JSON sees it. */
export type PlistJson = string | number | boolean | PlistJson[] | { [key: string]: PlistJson };

/**
 * Parses an XML plist with Python's plistlib (an independent, strict reader) and answers it as JSON. Throws
 * with Python's message when the document is not a well-formed plist.
 */
export function plistlibLoads(xml: string): PlistJson {
  const output = execFileSync(
    'python3',
    ['-c', 'import json,plistlib,sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'],
    { input: Buffer.from(xml, 'utf8') },
  );
  return JSON.parse(output.toString('utf8')) as PlistJson;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    const entity = ENTITIES[name];
    if (entity === undefined) throw new Error(`unknown entity ${whole}`);
    return entity;
  });
}

/**
 * A small reader of the XML plist subset configuration profiles use (dict, array, string, integer, true, false),
 * checking the prolog and that no raw markup character appears in text. Written in the test so that the JS side
 * checks the structure without a plist library.
 */
export function parseXmlPlist(xml: string): PlistJson {
  const prolog =
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<!DOCTYPE plist PUBLIC "-\/\/Apple\/\/DTD PLIST 1\.0\/\/EN" "http:\/\/www\.apple\.com\/DTDs\/PropertyList-1\.0\.dtd">\s*<plist version="1\.0">/;
  const head = prolog.exec(xml);
  if (head === null) throw new Error('missing XML declaration, DOCTYPE or <plist version="1.0">');
  const tokens = xml
    .slice(head[0].length)
    .split(/(<[^>]*>)/)
    .filter((token) => token.trim().length > 0);
  let position = 0;
  const next = (): string => {
    const token = tokens[position];
    if (token === undefined) throw new Error('unexpected end of plist');
    position += 1;
    return token;
  };
  const text = (closing: string): string => {
    let token = next();
    if (token === closing) return '';
    if (token.startsWith('<')) throw new Error(`unexpected ${token}`);
    if (/[<>]/.test(token)) throw new Error(`raw markup character in ${token}`);
    const value = decodeText(token);
    token = next();
    if (token !== closing) throw new Error(`expected ${closing}, got ${token}`);
    return value;
  };
  const value = (token: string): PlistJson => {
    if (token === '<string>') return text('</string>');
    if (token === '<integer>') return Number.parseInt(text('</integer>'), 10);
    if (token === '<true/>') return true;
    if (token === '<false/>') return false;
    if (token === '<array>') {
      const items: PlistJson[] = [];
      for (let item = next(); item !== '</array>'; item = next()) items.push(value(item));
      return items;
    }
    if (token === '<dict>') {
      const entries: Record<string, PlistJson> = {};
      for (let key = next(); key !== '</dict>'; key = next()) {
        if (key !== '<key>') throw new Error(`expected <key>, got ${key}`);
        const name = text('</key>');
        if (name in entries) throw new Error(`duplicate key ${name}`);
        entries[name] = value(next());
      }
      return entries;
    }
    throw new Error(`unexpected ${token}`);
  };
  const root = value(next());
  if (next() !== '</plist>' || position !== tokens.length) throw new Error('content after the root value');
  return root;
}
