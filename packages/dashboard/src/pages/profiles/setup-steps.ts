import type { Setup } from '@svc/sdk';
import { t } from '../../i18n/t.js';

/**
 * The steps of setting up each kind of device, in the reader's language with this profile's values. The API's
 * own steps (GET /v1/profiles/{id}/setup) are written for API clients and name API fields; the dashboard words
 * them for people.
 */
export function setupSteps(setup: Setup) {
  const servers = [...setup.ipv6, ...setup.ipv4].join(', ');
  return {
    apple: [t('profiles.setup.apple.install'), t('profiles.setup.apple.apps', { doh: setup.doh })],
    android: [
      t('profiles.setup.android.open'),
      t('profiles.setup.android.host', { host: setup.android.private_dns_host }),
      t('profiles.setup.android.device', { host: setup.android.private_dns_device_host }),
    ],
    windows: [
      t('profiles.setup.windows.open'),
      t('profiles.setup.windows.servers', { servers }),
      t('profiles.setup.windows.template', { template: setup.windows.doh_template }),
    ],
    linux: [t('profiles.setup.linux.file'), t('profiles.setup.linux.restart')],
    browsers: [
      t('profiles.setup.browsers.chrome', { doh: setup.doh }),
      t('profiles.setup.browsers.firefox', { doh: setup.doh }),
    ],
    routers: [
      t('profiles.setup.routers.encrypted', { dot: setup.dot, doh: setup.doh }),
      t('profiles.setup.routers.plain', { servers: setup.routers.plain_dns_servers.join(', ') }),
      t('profiles.setup.routers.ddns'),
    ],
  };
}
