import type { Profile } from '@svc/sdk';
import { t } from '../../i18n/t.js';

type Settings = Profile['settings'];
/** A value of a setting in words. */
export type Wording = { label: string; hint?: string };

/** The settings' names, by API field (the problem summary links each to its field). */
export function settingLabels(): Readonly<Record<string, string>> {
  return {
    name: t('profiles.settings.name'),
    'settings.block_mode': t('profiles.settings.block_mode'),
    'settings.logs_enabled': t('profiles.settings.logs_enabled'),
    'settings.log_client_ip': t('profiles.settings.log_client_ip'),
    'settings.log_domains': t('profiles.settings.log_domains'),
    'settings.log_destination': t('profiles.settings.log_destination'),
    'settings.retention_days': t('profiles.settings.retention_days'),
    'settings.node_queue_hours': t('profiles.settings.node_queue_hours'),
    'settings.log_region': t('profiles.settings.log_region'),
    'settings.time_zone': t('profiles.settings.time_zone'),
    'settings.cname_uncloak': t('profiles.settings.cname_uncloak'),
    'settings.cache_boost_ttl': t('profiles.settings.cache_boost_ttl'),
    'settings.ecs': t('profiles.settings.ecs'),
  };
}

export const BLOCK_MODES: Readonly<Record<Settings['block_mode'], Wording>> = {
  nxdomain: {
    label: t('profiles.settings.block_mode.nxdomain'),
    hint: t('profiles.settings.block_mode.nxdomain.hint'),
  },
  refused: { label: t('profiles.settings.block_mode.refused') },
  null: { label: t('profiles.settings.block_mode.null'), hint: t('profiles.settings.block_mode.null.hint') },
  'block-page': {
    label: t('profiles.settings.block_mode.block-page'),
    hint: t('profiles.settings.block_mode.block-page.hint'),
  },
};
export const DESTINATIONS: Readonly<Record<Settings['log_destination'], Wording>> = {
  cloud: {
    label: t('profiles.settings.destination.cloud'),
    hint: t('profiles.settings.destination.cloud.hint'),
  },
  'self-hosted': {
    label: t('profiles.settings.destination.self-hosted'),
    hint: t('profiles.settings.destination.self-hosted.hint'),
  },
  both: { label: t('profiles.settings.destination.both') },
  none: {
    label: t('profiles.settings.destination.none'),
    hint: t('profiles.settings.destination.none.hint'),
  },
};
export const ECS_MODES: Readonly<Record<Settings['ecs'], Wording>> = {
  off: { label: t('profiles.settings.ecs.off'), hint: t('profiles.settings.ecs.off.hint') },
  anonymised: {
    label: t('profiles.settings.ecs.anonymised'),
    hint: t('profiles.settings.ecs.anonymised.hint'),
  },
  full: { label: t('profiles.settings.ecs.full'), hint: t('profiles.settings.ecs.full.hint') },
};
export const REGIONS: Readonly<Record<Settings['log_region'], Wording>> = {
  ca: { label: t('profiles.settings.region.ca') },
};
/** Regions the API may list as not offered, named for people. */
export const REGION_NAMES: Readonly<Record<string, Wording>> = {
  ...REGIONS,
  eu: { label: t('profiles.settings.region.eu') },
};
