import type { Profile } from '@svc/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { profilesInvalidations, profilesMutations } from '../../api/profiles.queries.js';
import { useNotify } from '../../feedback/notify.js';
import { formatDateTime, formatRelative } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';
import { problemOf } from '../../problems/problem-of.js';
import { runningPause } from './paused-badge.js';

/** Minutes from `now` to the reader's next local midnight (the API takes 1 to 1440). */
export function minutesUntilMidnight(now: Date): number {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return Math.min(1440, Math.max(1, Math.ceil((midnight.getTime() - now.getTime()) / 60_000)));
}

const PRESETS = [
  { label: () => t('pause.minutes15'), minutes: () => 15 },
  { label: () => t('pause.hour1'), minutes: () => 60 },
  { label: () => t('pause.hours4'), minutes: () => 240 },
  { label: () => t('pause.untilMidnight'), minutes: () => minutesUntilMidnight(new Date()) },
];

/**
 * "Pause filtering" (issue 38): presets from 15 minutes to midnight, or, while paused, when it ends and
 * "Resume filtering". The profile is read again when the pause ends, so the page never shows a pause that is
 * over. Hidden while an operator suspended the profile (it then refuses writes; the frame says why).
 */
export function PauseControl({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const failed = (error: unknown) => {
    const problem = problemOf(error);
    notify.error(t('pause.failed', { reason: problem.detail ?? problem.title }), problem.requestId);
  };
  const pause = useMutation({
    ...profilesMutations.pause(queryClient, profile.id),
    onError: failed,
  });
  const resume = useMutation({
    ...profilesMutations.resume(queryClient, profile.id),
    onError: failed,
  });
  const until = runningPause(profile);
  useEffect(() => {
    if (until === null) return;
    const timer = setTimeout(
      () => profilesInvalidations.pauseChanged(queryClient, profile.id),
      Math.max(0, Date.parse(until) - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [until, queryClient, profile.id]);
  if (profile.suspended) return null;
  return (
    <section aria-labelledby="pause">
      <h2 id="pause">{t('pause.title')}</h2>
      {until !== null ? (
        <>
          <p role="status">
            {t('pause.pausedUntil', { until: formatDateTime(until), remaining: formatRelative(until) })}
          </p>
          <button
            type="button"
            disabled={resume.isPending}
            onClick={() => resume.mutate(undefined, { onSuccess: () => notify.success(t('pause.resumed')) })}
          >
            {resume.isPending ? t('pause.resuming') : t('pause.resume')}
          </button>
        </>
      ) : (
        <>
          <p className="hint">{t('pause.intro')}</p>
          <fieldset>
            <legend>{t('pause.presets')}</legend>
            {PRESETS.map((preset) => (
              <button
                key={preset.label()}
                type="button"
                disabled={pause.isPending}
                onClick={() =>
                  pause.mutate(preset.minutes(), {
                    onSuccess: (answer) =>
                      notify.success(t('pause.paused', { until: formatDateTime(answer.paused_until) })),
                  })
                }
              >
                {preset.label()}
              </button>
            ))}
          </fieldset>
          {pause.isPending && <p aria-busy="true">{t('pause.pausing')}</p>}
        </>
      )}
    </section>
  );
}
