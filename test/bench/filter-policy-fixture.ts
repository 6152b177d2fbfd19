import type { NodeProfileDocument } from '@svc/sdk';

/** Devices in the bench's household document (issue 38: 1,000 must cost nothing up front). */
export const BENCH_DEVICES = 1_000;

/**
 * Issue 38's policy at a size a large household or school reaches: three schedules in Europe/Berlin, a bedtime,
 * assignments on a deny rule and the list, an allowance, and {@link BENCH_DEVICES} devices each with its own
 * deny rule, every tenth with parental off and its own bedtime, every seventh paused.
 */
export function benchPolicy(
  at: number,
): Pick<NodeProfileDocument, 'schedules' | 'bedtime' | 'schedule_assignments' | 'allowances' | 'devices'> {
  const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'] as const;
  const devices: NodeProfileDocument['devices'] = {};
  for (let index = 0; index < BENCH_DEVICES; index += 1)
    devices[`device-${index}`] = {
      rules: { deny: [`blocked-for-${index}.example`], allow: [] },
      ...(index % 10 === 0 ? { parental: 'off' as const, bedtime: 'homework' } : {}),
      ...(index % 7 === 0 ? { paused_until: new Date(at - 60_000).toISOString() } : {}),
    };
  return {
    schedules: [
      { name: 'school-nights', windows: [{ days: [...weekdays], start: '21:00', end: '06:30' }] },
      { name: 'homework', windows: [{ days: [...weekdays], start: '16:00', end: '18:00' }] },
      { name: 'weekend', windows: [{ days: ['sat', 'sun'], start: '00:00', end: '00:00' }] },
    ],
    bedtime: 'school-nights',
    schedule_assignments: [
      { target: { kind: 'deny', pattern: 'tiktok.com' }, schedule: 'weekend', mode: 'lifted_during' },
      { target: { kind: 'list', id: 1 }, schedule: 'homework', mode: 'lifted_during' },
    ],
    allowances: [{ domain: 'ok.example', service: null, until: new Date(at + 3_600_000).toISOString() }],
    devices,
  };
}
