import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t } from '../../i18n/t.js';

const HERE = import.meta.dirname;

/** The account area's components (not their tests), with their source. */
function pages(): { file: string; source: string }[] {
  return readdirSync(HERE)
    .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
    .map((file) => ({ file, source: readFileSync(join(HERE, file), 'utf8') }));
}

/**
 * Words written straight into the markup: JSX text with a letter in it (`>Sign in<`), and the attributes a
 * person reads or hears given as a literal (`label="Email address"`). Either would stay English in every
 * language, so each must come from the catalogue.
 */
function literalText(source: string): string[] {
  const text = [...source.matchAll(/>\s*([^<>{}]*[A-Za-z][^<>{}]*?)\s*</g)]
    .map((match) => match[1] ?? '')
    // Between a generic's or a comparison's angle brackets and the next tag is code, not text:
    // `useRef<HTMLButtonElement>(null);`, `length > 0) return`, `) : verify.isError ? (`, `!session.current && (`.
    .filter((found) => !/[;=?&]|^[)!]|\) return\b/.test(found));
  const attributes = [
    ...source.matchAll(
      /\b(label|hint|title|aria-label|ariaLabel|busyText|fallback|caption|header)="([^"]*)"/g,
    ),
  ].map((match) => `${match[1]}="${match[2]}"`);
  return [...text, ...attributes];
}

describe('the account area and the message catalogue', () => {
  it('writes no user-visible words into its markup: every one comes through t()', () => {
    const found = Object.fromEntries(
      pages()
        .map(({ file, source }) => [file, literalText(source)] as const)
        .filter(([, literals]) => literals.length > 0),
    );
    expect(found).toEqual({});
  });

  it('finds words written into markup (the check above can fail)', () => {
    expect(
      literalText('<p>Your account</p><strong>(verified)</strong><TextField label="Email address" />'),
    ).toEqual(['Your account', '(verified)', 'label="Email address"']);
    expect(literalText("<p>{t('account.overview.title')}</p>")).toEqual([]);
  });

  it('fills a message from its parameters, with the plural the count takes', () => {
    expect(t('account.recoveryCodes.remaining', { count: 1 })).toBe('You have 1 unused recovery code.');
    expect(t('account.recoveryCodes.remaining', { count: 10 })).toBe('You have 10 unused recovery codes.');
    expect(t('account.tokens.revoked', { name: 'CI' })).toBe('Token CI revoked: it no longer works.');
    // A key that is not in the catalogue, or a message without its parameters, does not compile.
    // @ts-expect-error not a key of the catalogue
    expect(t('account.notAKey')).toBeUndefined();
    // @ts-expect-error the message needs its `name`
    expect(() => t('account.tokens.revoked')).toThrow();
  });
});
