import type { Profile } from '@svc/sdk';
import type { Catalogue } from '../../i18n/en/index.js';
import { type MessageKey, t } from '../../i18n/t.js';

/** A message without parameters. */
type PlainKey = { [K in MessageKey]: Catalogue[K] extends string ? K : never }[MessageKey];

/** A security toggle of spec 2.3, by its field name. */
export type SecurityToggle = keyof Profile['security'];

/** The security toggles in the order they are shown. */
export const SECURITY_TOGGLES: readonly SecurityToggle[] = [
  'threat_intel',
  'nrd',
  'dga',
  'typosquat',
  'idn_homograph',
  'rebinding',
  'cryptojacking',
  'csam',
];

const KEYS: Readonly<Record<SecurityToggle, { label: PlainKey; hint: PlainKey }>> = {
  threat_intel: { label: 'profiles.security.threat_intel', hint: 'profiles.security.threat_intel.hint' },
  nrd: { label: 'profiles.security.nrd', hint: 'profiles.security.nrd.hint' },
  dga: { label: 'profiles.security.dga', hint: 'profiles.security.dga.hint' },
  typosquat: { label: 'profiles.security.typosquat', hint: 'profiles.security.typosquat.hint' },
  idn_homograph: { label: 'profiles.security.idn_homograph', hint: 'profiles.security.idn_homograph.hint' },
  rebinding: { label: 'profiles.security.rebinding', hint: 'profiles.security.rebinding.hint' },
  cryptojacking: { label: 'profiles.security.cryptojacking', hint: 'profiles.security.cryptojacking.hint' },
  csam: { label: 'profiles.security.csam', hint: 'profiles.security.csam.hint' },
};

/** A toggle's name and explanation in the reader's language. */
export function securityWording(key: SecurityToggle): { label: string; hint: string } {
  const keys = KEYS[key];
  return { label: t(keys.label), hint: t(keys.hint) };
}

/**
 * The setting a catalogue list backs (`security.threat_intel`, `parental.categories:gambling`), named for
 * people; `categoryName` names a parental category by id.
 */
export function settingName(toggle: string, categoryName: (id: string) => string): string {
  const security = /^security\.(.+)$/.exec(toggle)?.[1];
  if (security !== undefined && security in KEYS) return securityWording(security as SecurityToggle).label;
  const category = /^parental\.categories:(.+)$/.exec(toggle)?.[1];
  if (category !== undefined)
    return t('profiles.blocklists.categorySetting', { name: categoryName(category) });
  return t('profiles.blocklists.otherSetting');
}
