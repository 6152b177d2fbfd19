import { type EntryForm, entryFlag } from './entry-forms.js';

/**
 * A compiled list (an "artifact"): UTF-8 text, its first line {@link LIST_ARTIFACT_HEADER}, then one entry per
 * line, each `\n`-terminated, in the rule pattern syntax of spec 2.4 with an optional `@@` for an exception:
 *
 * | Line                | Meaning                                                    |
 * |---------------------|------------------------------------------------------------|
 * | `=ads.example`      | blocks exactly `ads.example` (hosts and plain domain lists) |
 * | `ads.example`       | blocks `ads.example` and every name under it (`||ads.example^`) |
 * | `*.ads.example`     | blocks every name under `ads.example`, not the name itself |
 * | `@@=…`, `@@…`, `@@*.…` | the same forms as exceptions: they unblock within the list |
 *
 * Names are lower case A-labels without a trailing dot. Lines are sorted by the name's key ({@link nameKey},
 * lane A then lane B, unsigned) and then by their bytes, without repeats, so that one content has one text:
 * its SHA-256 is the artifact's version, and equal digests mean equal lists.
 */
export const LIST_ARTIFACT_HEADER = 'svc-list 1';

/** The artifact line of a name in a form. */
export function artifactLine(name: string, form: EntryForm, exception: boolean): string {
  const prefix = form === 'exact' ? '=' : form === 'subdomains' ? '*.' : '';
  return `${exception ? '@@' : ''}${prefix}${name}`;
}

/** An artifact line's flag and where its name starts, or null for a line that is not an entry. */
export function parseArtifactLine(
  bytes: Uint8Array,
  start: number,
  end: number,
): { flag: number; nameStart: number } | null {
  let at = start;
  let exception = false;
  if (end - at >= 2 && bytes[at] === 64 && bytes[at + 1] === 64) {
    exception = true;
    at += 2;
  }
  let form: EntryForm = 'subtree';
  if (at < end && bytes[at] === 61) {
    form = 'exact';
    at += 1;
  } else if (end - at >= 2 && bytes[at] === 42 && bytes[at + 1] === 46) {
    form = 'subdomains';
    at += 2;
  }
  if (at >= end) return null;
  return { flag: entryFlag(form, exception), nameStart: at };
}

/** How many lines `bytes` holds (newline-terminated, a last unterminated line counted too). */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  let at = bytes.indexOf(10);
  let last = -1;
  while (at !== -1) {
    lines += 1;
    last = at;
    at = bytes.indexOf(10, at + 1);
  }
  return last === bytes.length - 1 ? lines : lines + 1;
}
