/** The timed pause of a profile's filtering, on its overview (issue 38). */
export const pause = {
  'pause.title': 'Pause filtering',
  'pause.intro':
    'Turns this profile’s own blocking off for a while: rules, blocklists, parental controls and security. Rewrites still answer, and operator blocks still apply. Filtering comes back by itself.',
  'pause.presets': 'Pause for',
  'pause.minutes15': '15 minutes',
  'pause.hour1': '1 hour',
  'pause.hours4': '4 hours',
  'pause.untilMidnight': 'Until midnight',
  'pause.pausing': 'Pausing…',
  'pause.pausedUntil': (p: { until: string; remaining: string }) =>
    `Filtering is paused until ${p.until} (${p.remaining}).`,
  'pause.resume': 'Resume filtering',
  'pause.resuming': 'Resuming…',
  'pause.paused': (p: { until: string }) => `Filtering paused until ${p.until}.`,
  'pause.resumed': 'Filtering resumed.',
  'pause.failed': (p: { reason: string }) => `Filtering was not changed: ${p.reason}`,
} as const;
