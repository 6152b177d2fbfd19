import { readFileSync } from 'node:fs';
import {
  DomainSet,
  LIST_ARTIFACT_HEADER,
  LIST_LINE_MAX_LENGTH,
  ListCompiler,
  type ListFormat,
  normaliseListName,
  SuffixKeys,
} from '@svc/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/lists/${name}`, import.meta.url), 'utf8');

function compile(format: ListFormat, ...pieces: string[]) {
  const compiler = new ListCompiler(format);
  for (const piece of pieces) compiler.pushText(piece);
  const compiled = compiler.finish();
  const bytes = Buffer.concat([...compiled.chunks()]);
  return {
    stats: compiled.stats,
    bytes,
    text: bytes.toString('utf8'),
    lines: bytes.toString('utf8').split('\n'),
  };
}

function blocks(set: DomainSet, name: string): boolean {
  const keys = new SuffixKeys();
  keys.of(name);
  return set.blocks(keys);
}

describe(ListCompiler.name, () => {
  describe('hosts files', () => {
    const { stats, lines, bytes } = compile('hosts', fixture('hosts.txt'));

    it('keeps each blocked name exactly once, lower case, in A-labels, without the trailing dot', () => {
      expect(lines[0]).toBe(LIST_ARTIFACT_HEADER);
      expect(lines.slice(1, -1).sort()).toEqual(
        [
          '=ads.tracker-fixture.example',
          '=beacon.fixture-ads.example',
          '=crlf.fixture.example',
          '=last-line-without-newline.example',
          '=metrics.tracker-fixture.example',
          '=pixel.fixture-ads.example',
          '=tab.separated.example',
          '=under_score.fixture.example',
          '=xn--bcher-ads-q9a.example',
          '=xn--mnchen-3ya.example',
        ].sort(),
      );
      expect(lines.at(-1)).toBe('');
      expect(stats).toMatchObject({ entries: 10, exceptions: 0, duplicates: 1 });
    });

    it('counts malformed names as invalid and quotes the first ones with their line numbers', () => {
      expect(stats.invalid).toBe(6);
      expect(stats.invalidSamples).toHaveLength(5);
      expect(stats.invalidSamples[0]).toMatchObject({ text: '0.0.0.0 bad..double-dot.example' });
      expect(stats.invalidSamples[0]?.reason).toMatch(/empty label/);
      expect(stats.invalidSamples.map((sample) => sample.reason).join('\n')).toMatch(/IP address/);
    });

    it('leaves the local names of a hosts file out without calling them invalid', () => {
      expect(stats.ignored).toBe(14);
    });

    it('blocks a hosts name exactly, not the names under it', () => {
      const set = DomainSet.fromArtifact(bytes);
      expect(blocks(set, 'ads.tracker-fixture.example')).toBe(true);
      expect(blocks(set, 'ADS.tracker-fixture.example.')).toBe(true);
      expect(blocks(set, 'sub.ads.tracker-fixture.example')).toBe(false);
      expect(blocks(set, 'tracker-fixture.example')).toBe(false);
      expect(set.entries).toBe(10);
    });
  });

  describe('domain lists', () => {
    const { stats, lines } = compile('domains', fixture('domains.txt'));

    it('reads one name a line, *.name as what is under it, and inline comments', () => {
      expect(lines).toContain('=phish-login.fixture.example');
      expect(lines).toContain('=cdn.fixture.example');
      expect(lines).toContain('*.wildcard.fixture.example');
      expect(lines).toContain('=xn--80ak6aa92e.example');
      expect(stats).toMatchObject({ entries: 5, duplicates: 1, invalid: 2, ignored: 1 });
      expect(stats.invalidSamples[0]?.text).toBe('https://not-a-name.example/path');
    });

    it('keeps every name whole when the names fill more than one block of the store (over 1 MiB)', () => {
      const names = Array.from({ length: 70_000 }, (_, index) => `name-${index}.block-${index % 31}.example`);
      const { stats, lines } = compile('domains', `${names.join('\n')}\n${names.slice(0, 10).join('\n')}\n`);
      expect(stats).toMatchObject({ entries: names.length, duplicates: 10 });
      expect(new Set(lines.slice(1, -1))).toEqual(new Set(names.map((name) => `=${name}`)));
      const set = DomainSet.fromArtifact(compile('domains', names.join('\n')).bytes);
      expect(names.every((name) => blocks(set, name))).toBe(true);
    });
  });

  describe('adblock-style DNS filters', () => {
    const { stats, lines, bytes } = compile('adblock', fixture('adblock.txt'));
    const set = DomainSet.fromArtifact(bytes);

    it('reads ||name^ as the name and everything under it, |name^ as the name, @@ as exceptions', () => {
      expect(lines.slice(1, -1).sort()).toEqual(
        [
          'ads.adblock-fixture.example',
          'tracker.adblock-fixture.example',
          'trackers.adblock-fixture.example',
          'third.adblock-fixture.example',
          '=exact.adblock-fixture.example',
          '=plain.adblock-fixture.example',
          '@@good.ads.adblock-fixture.example',
          '@@=exact-exception.adblock-fixture.example',
        ].sort(),
      );
      expect(stats).toMatchObject({ entries: 6, exceptions: 2, invalid: 1 });
    });

    it('ignores what a DNS filter cannot apply: narrowing modifiers, patterns, regular expressions, cosmetics', () => {
      expect(stats.ignored).toBe(9);
      expect(lines.join('\n')).not.toMatch(/typed|client|wild|path|no-separator/);
    });

    it('lets an exception unblock within the list, under a blocked name', () => {
      expect(blocks(set, 'ads.adblock-fixture.example')).toBe(true);
      expect(blocks(set, 'x.ads.adblock-fixture.example')).toBe(true);
      expect(blocks(set, 'good.ads.adblock-fixture.example')).toBe(false);
      expect(blocks(set, 'deeper.good.ads.adblock-fixture.example')).toBe(false);
      expect(blocks(set, 'exact.adblock-fixture.example')).toBe(true);
      expect(blocks(set, 'sub.exact.adblock-fixture.example')).toBe(false);
    });
  });

  describe('one content, one artifact', () => {
    it('writes the same bytes whatever the order of the lines and the pieces they arrive in', () => {
      const names = Array.from({ length: 300 }, (_, index) => `host-${index}.fixture.example`);
      const reference = compile('domains', names.join('\n')).text;
      fc.assert(
        fc.property(
          fc.shuffledSubarray(names, { minLength: names.length }),
          fc.integer({ min: 1, max: 97 }),
          (order, size) => {
            const text = `${order.join('\r\n')}\n`;
            const pieces = Array.from({ length: Math.ceil(text.length / size) }, (_, index) =>
              text.slice(index * size, (index + 1) * size),
            );
            return compile('domains', ...pieces).text === reference;
          },
        ),
        { numRuns: 40 },
      );
    });

    it('merges earlier artifacts into the same artifact as compiling their sources together', () => {
      const first = compile('domains', 'a.example\nb.example\n');
      const second = compile('adblock', '||b.example^\n@@||c.b.example^\n');
      const merged = new ListCompiler('domains');
      merged.pushArtifact(first.bytes);
      merged.pushArtifact(second.bytes);
      const text = Buffer.concat([...merged.finish().chunks()]).toString();
      const together = new ListCompiler('adblock');
      together.pushText('|a.example^\n|b.example^\n||b.example^\n@@||c.b.example^\n');
      expect(text).toBe(Buffer.concat([...together.finish().chunks()]).toString());
      expect(text.split('\n').sort()).toEqual(
        ['', '=a.example', '=b.example', '@@c.b.example', 'b.example', LIST_ARTIFACT_HEADER].sort(),
      );
    });

    it('writes an empty list as its header alone', () => {
      expect(compile('hosts', '# nothing\n').text).toBe(`${LIST_ARTIFACT_HEADER}\n`);
    });
  });

  describe('hostile input', () => {
    it('counts an over-long line once and never holds it whole, even when it arrives in pieces', () => {
      const piece = 'a'.repeat(1000);
      const compiler = new ListCompiler('domains');
      compiler.pushText('first.example\n');
      for (let index = 0; index < 50; index += 1) compiler.pushText(piece);
      compiler.pushText('\nlast.example\n');
      const compiled = compiler.finish();
      expect(compiled.stats).toMatchObject({ entries: 2, invalid: 1, lines: 3 });
      expect(compiled.stats.invalidSamples[0]?.reason).toBe(`longer than ${LIST_LINE_MAX_LENGTH} characters`);
      expect(compiled.stats.invalidSamples[0]?.text.length).toBeLessThanOrEqual(120);
    });

    it('refuses names that are not domain names, and never lets one through un-normalised', () => {
      for (const raw of [
        '',
        '.',
        'a..b',
        '-a.example',
        'a-.example',
        `${'x'.repeat(64)}.example`,
        '1.2.3.4',
        'example.0x1f',
        'com',
        'a b.example',
        'http://x.example',
      ]) {
        expect(normaliseListName(raw).ok, raw).toBe(false);
      }
      fc.assert(
        fc.property(fc.string({ maxLength: 40 }), (raw) => {
          const result = normaliseListName(raw);
          return (
            !result.ok ||
            (/^[a-z0-9_.-]+$/.test(result.name) && !result.name.endsWith('.') && result.name.includes('.'))
          );
        }),
        { numRuns: 3000 },
      );
    });

    it('is finished once', () => {
      const compiler = new ListCompiler('hosts');
      compiler.finish();
      expect(() => compiler.pushText('x.example\n')).toThrow(/finished/);
    });
  });
});
