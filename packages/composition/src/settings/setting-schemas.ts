import { z } from 'zod';

/** What a section's variables parse to. */
export type Parsed<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

/** A comma-separated setting as its trimmed, non-empty entries. */
export const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0),
);

/** A yes/no setting, spelled `true` or `false`. */
export const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Comma-separated URLs, each kept as its origin. */
export const originList = commaList.pipe(z.array(z.url().transform((url) => new URL(url).origin)));

/** A URL with one of `schemes` (`http:`, …). */
export const urlWithSchemes = (schemes: string[]) =>
  z
    .string()
    .refine(
      (value) => URL.canParse(value) && schemes.includes(new URL(value).protocol),
      `must be a URL with scheme ${schemes.map((scheme) => scheme.replace(':', '')).join(' or ')}`,
    );
