import type { Capabilities } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { metaQueries } from '../../api/meta.queries.js';
import type { Choice } from '../../forms/choice-field.js';
import { t } from '../../i18n/t.js';

/** What this deployment supports (GET /v1/capabilities); it changes only with the server's configuration. */
export function useCapabilities() {
  return useQuery(metaQueries.capabilities());
}

/**
 * The choices of setting `name` (dotted, `settings.block_mode`) as the deployment lists them, worded with
 * `labels` where the dashboard knows the value (a newer server's value shows as sent), the unsupported ones
 * with the server's reason. The current value is always among them.
 */
export function choicesOf(
  capabilities: Capabilities | undefined,
  name: string,
  current: string,
  labels: Readonly<Record<string, { label: string; hint?: string }>>,
): Choice[] {
  const listed = capabilities?.settings[name] ?? {};
  const values = Object.keys(listed);
  if (values.length === 0) values.push(...Object.keys(labels));
  if (!values.includes(current)) values.push(current);
  return values.map((value) => {
    const capability = listed[value];
    return {
      value,
      label: labels[value]?.label ?? value,
      hint: labels[value]?.hint,
      unavailable:
        capability?.supported === false
          ? (capability.reason ?? t('profiles.settings.notSupported'))
          : undefined,
    };
  });
}
