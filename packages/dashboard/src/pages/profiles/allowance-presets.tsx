import type { AllowanceCreateRequest } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { allowancesMutations } from '../../api/allowances.queries.js';
import { formatDateTime } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { minutesUntilMidnight } from './pause-control.js';

const PRESETS = [
  { label: () => t('allowances.minutes15'), minutes: () => 15 },
  { label: () => t('allowances.hour1'), minutes: () => 60 },
  { label: () => t('allowances.untilTomorrow'), minutes: () => minutesUntilMidnight(new Date()) },
];

/**
 * "Allow for 15 min / 1 h / until tomorrow" (issue 38): a timed allowance of a blocked name or parental
 * service, which the edges end by their own clocks. `legend` names what is allowed, so that each group of
 * buttons has its own accessible name where several show at once (one per blocked service).
 */
export function AllowancePresets({
  profileId,
  target,
  legend,
  subject,
}: {
  profileId: string;
  target: Pick<AllowanceCreateRequest, 'domain'> | Pick<AllowanceCreateRequest, 'service'>;
  legend: string;
  /** What the notice names: the domain, or the service by its name. */
  subject: string;
}) {
  const queryClient = useQueryClient();
  const create = useMutation(allowancesMutations.create(queryClient, profileId));
  const allow = (minutes: number) => create.mutate({ ...target, minutes });
  return (
    <fieldset>
      <legend>{legend}</legend>
      {create.data !== undefined && (
        <p className="notice" role="status">
          {t('allowances.created', { subject, until: formatDateTime(create.data.expires_at) })}
        </p>
      )}
      {create.error !== null && (
        <ProblemDisplay
          problem={problemOf(create.error)}
          fieldLabels={{ domain: t('allowances.domain'), service: t('allowances.service') }}
        />
      )}
      {PRESETS.map((preset) => (
        <button
          key={preset.label()}
          type="button"
          disabled={create.isPending}
          aria-busy={create.isPending}
          onClick={() => allow(preset.minutes())}
        >
          {preset.label()}
        </button>
      ))}
    </fieldset>
  );
}
