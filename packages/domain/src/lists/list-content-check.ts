/** Bytes of a body's start looked at to tell an HTML page or a binary file from a list. */
export const CONTENT_SNIFF_BYTES = 8 * 1024;

/** What a body's start looks like when it is no list at all. */
export type ForeignContent = 'html' | 'binary';

/** The words a refusal names foreign content with (the CLI prints them, the sources view shows them). */
const FOREIGN_CONTENT_MESSAGES: Record<ForeignContent, string> = {
  html: 'the file is an HTML page, not a list',
  binary: 'the file is binary',
};

const HTML_STARTS = ['<!doctype html', '<html', '<head', '<body', '<?xml'];

/**
 * Whether a body's first bytes are an HTML page (a captive portal or an error page answered with 200, a page
 * saved instead of the list it links to) or binary (NUL bytes, many control bytes, or invalid UTF-8: an
 * archive, an image, a compressed list). Lists are plain text; either is refused before it replaces one.
 */
export function sniffForeignContent(head: Uint8Array): ForeignContent | null {
  if (head.length === 0) return null;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return 'binary';
    // Tab, line feed, form feed, carriage return and escape appear in text; other C0 bytes do not.
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27) control += 1;
  }
  if (control > head.length / 20) return 'binary';
  let text: string;
  try {
    // `stream`: a character cut at the sample's end is not an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return 'binary';
  }
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 64)
    .toLowerCase();
  if (HTML_STARTS.some((tag) => start.startsWith(tag))) return 'html';
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const tagged = lines.filter((line) => /^<\/?[a-z!][^>]*>?/i.test(line)).length;
  return lines.length >= 3 && tagged > lines.length / 2 ? 'html' : null;
}

/** Why content was refused in place of a list's or a source's last good version. */
export interface ListContentRefusal {
  reason: ForeignContent | 'empty' | 'shrunk';
  message: string;
}

/**
 * Judges a compiled body against the last good version it would replace: HTML or binary content is always
 * refused; no valid entry, or fewer than half the entries of the last good version, is refused unless
 * `allowShrink` (a list that really lost most of its entries is accepted by an operator who says so).
 */
export function judgeListContent(facts: {
  foreign: ForeignContent | null;
  entries: number;
  previousEntries: number | null;
  allowShrink: boolean;
}): ListContentRefusal | null {
  if (facts.foreign !== null)
    return { reason: facts.foreign, message: FOREIGN_CONTENT_MESSAGES[facts.foreign] };
  if (facts.allowShrink) return null;
  if (facts.entries === 0)
    return { reason: 'empty', message: 'the content has no valid entry (--allow-shrink accepts it)' };
  const previous = facts.previousEntries;
  if (previous !== null && facts.entries < previous / 2)
    return {
      reason: 'shrunk',
      message: `the content has ${facts.entries} entries, less than half of the last good version's ${previous} (--allow-shrink accepts it)`,
    };
  return null;
}
