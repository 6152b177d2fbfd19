import { judgeListContent, sniffForeignContent } from '@svc/domain';
import { describe, expect, it } from 'vitest';

const bytes = (text: string) => new TextEncoder().encode(text);

describe(sniffForeignContent.name, () => {
  it('names an HTML page, whatever comes before its first tag', () => {
    expect(sniffForeignContent(bytes('<!DOCTYPE html>\n<html>'))).toBe('html');
    expect(sniffForeignContent(bytes('\uFEFF \n\t<HTML lang="en">'))).toBe('html');
    expect(sniffForeignContent(bytes('<head><title>502</title></head>'))).toBe('html');
    expect(sniffForeignContent(bytes('<body>nope</body>'))).toBe('html');
    expect(sniffForeignContent(bytes('# saved page\n<div>\n<p>ads.example</p>\n<span>x</span>\n'))).toBe(
      'html',
    );
  });

  it('names binary content: NUL bytes, control bytes, invalid UTF-8', () => {
    expect(sniffForeignContent(new Uint8Array([0x1f, 0x8b, 0x08, 0x00]))).toBe('binary');
    expect(sniffForeignContent(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x01, 0x02, 0x05]))).toBe(
      'binary',
    );
    expect(sniffForeignContent(new Uint8Array([0x61, 0x62, 0xc3, 0x28, 0x0a]))).toBe('binary');
  });

  it('takes lists as lists: hosts, adblock, domains with UTF-8 comments, a character cut at the sample end', () => {
    expect(sniffForeignContent(bytes('# Title: hosts\n0.0.0.0 ads.example\n'))).toBeNull();
    expect(sniffForeignContent(bytes('[Adblock Plus 2.0]\n! comment\n||ads.example^\n'))).toBeNull();
    expect(sniffForeignContent(bytes('# liste française é\r\nads.example\r\n'))).toBeNull();
    expect(sniffForeignContent(bytes('ads.example\n# é').subarray(0, -1))).toBeNull();
    expect(sniffForeignContent(new Uint8Array())).toBeNull();
  });
});

describe(judgeListContent.name, () => {
  const judge = (entries: number, previousEntries: number | null, allowShrink = false) =>
    judgeListContent({ foreign: null, entries, previousEntries, allowShrink })?.reason ?? null;

  it('refuses no entry, or fewer than half the last good version’s, unless allowed', () => {
    expect(judge(0, null)).toBe('empty');
    expect(judge(0, null, true)).toBeNull();
    expect(judge(49, 100)).toBe('shrunk');
    expect(judge(50, 100)).toBeNull();
    expect(judge(1, 100, true)).toBeNull();
    expect(judge(5, null)).toBeNull();
  });

  it('always refuses HTML and binary content', () => {
    expect(
      judgeListContent({ foreign: 'html', entries: 10, previousEntries: null, allowShrink: true })?.message,
    ).toBe('the file is an HTML page, not a list');
    expect(
      judgeListContent({ foreign: 'binary', entries: 10, previousEntries: 1, allowShrink: true })?.message,
    ).toBe('the file is binary');
  });
});
