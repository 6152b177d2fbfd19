import { type Catalogue, en } from './en/index.js';

/** A key of the catalogue. */
export type MessageKey = keyof Catalogue;

type Entry<K extends MessageKey> = Catalogue[K];

/** The parameters message `K` takes: none for a plain string, the function's argument otherwise. */
type ParamsOf<K extends MessageKey> = Entry<K> extends (params: infer P) => string ? [params: P] : [];

/** The language the dashboard speaks: the catalogue that exists for the reader's first preferred language. */
const catalogues: Record<string, Catalogue> = { en };

function pickCatalogue(): Catalogue {
  const preferred = typeof navigator === 'undefined' ? [] : navigator.languages;
  for (const tag of preferred) {
    const found = catalogues[tag] ?? catalogues[tag.split('-')[0] ?? ''];
    if (found !== undefined) return found;
  }
  return en;
}

const catalogue = pickCatalogue();

/**
 * The text of message `key` in the reader's language, with its parameters: `t('common.saved')`,
 * `t('common.items', { count: 3 })`. Every user-visible string goes through here, so a page is translated by
 * adding a catalogue, never by editing the page.
 */
export function t<K extends MessageKey>(key: K, ...params: ParamsOf<K>): string {
  const entry: unknown = catalogue[key];
  if (typeof entry === 'function') return (entry as (p: unknown) => string)(params[0]);
  return entry as string;
}
