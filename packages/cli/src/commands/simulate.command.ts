import { SIMULATION_MAX_DAYS, SIMULATION_MAX_DEVICES, SIMULATION_MAX_QUERIES } from '@svc/edge-simulator';
import { type Command, InvalidArgumentError } from 'commander';
import { processOutput } from '../output.js';
import type { StorageFlags } from '../settings-from-options.js';
import { runStorageOperation } from '../storage/run-storage-operation.js';
import type { SimulateResult } from '../storage/simulate.operation.js';

/** A whole number from `min` to `max` (a usage error, exit code 2, otherwise). */
function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max)
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    return number;
  };
}

/** An instant as RFC 3339 (`2026-11-27T21:30:00Z`, an offset allowed), as Unix ms. */
function instant(value: string): number {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(at)) throw new InvalidArgumentError('must be a time such as 2026-11-27T21:30:00Z');
  return at;
}

/** A device id (spec 2.5: at most 64 characters). */
function deviceId(value: string): string {
  if (value.length === 0 || value.length > 64)
    throw new InvalidArgumentError('must be a device id of 1 to 64 characters');
  return value;
}

type SimulateFlags = StorageFlags & {
  json?: boolean;
  profile: string;
  queries: number;
  days: number;
  devices: number;
  seed?: number;
  device?: string;
  at?: number;
};

function describe(result: SimulateResult): string {
  const totals = Object.entries(result.totals)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  const devices = result.devices.map((device) => `${device.id} (${device.transport})`).join(', ');
  return [
    `simulated ${result.queries} queries for profile ${result.profile_id} (destination ${result.destination}, seed ${result.seed})`,
    `query-log rows written: ${result.rows_written}${result.rows_written > 0 ? ` (retention ${result.retention_days} days)` : ''}`,
    ...(result.rows_held > 0 ? [`rows held for the profile's offline nodes: ${result.rows_held}`] : []),
    `hourly totals: ${totals} over ${result.hours} hours`,
    `devices: ${devices === '' ? 'none' : devices}`,
    `elapsed ${(result.elapsed_ms / 1000).toFixed(2)} s, ${result.rows_per_second} rows/s`,
  ].join('\n');
}

/** `svc simulate --profile ID [--queries N] [--days D] [--devices K] [--seed S] [--device ID] [--at TIME]` (RUNNER.md). */
export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description(
      'play the edge resolvers: write realistic query-log rows, hourly totals and device sightings for a profile',
    )
    .requiredOption('--profile <id>', 'the profile id')
    .option('--queries <n>', 'queries to simulate', wholeNumber(0, SIMULATION_MAX_QUERIES), 10_000)
    .option('--days <d>', 'spread over the last D days', wholeNumber(1, SIMULATION_MAX_DAYS), 7)
    .option('--devices <k>', 'devices of the household', wholeNumber(0, SIMULATION_MAX_DEVICES), 5)
    .option(
      '--seed <s>',
      'seed of the traffic (default: random, printed)',
      wholeNumber(0, Number.MAX_SAFE_INTEGER),
    )
    .option('--device <id>', 'decide as this device of the profile (its overrides)', deviceId)
    .option(
      '--at <time>',
      'decide as at this instant (RFC 3339): schedules, pauses and allowances as then',
      instant,
    )
    .option('--data-dir <dir>', 'data dir of the embedded engines (SVC_DATA_DIR)')
    .option('--json', 'machine-readable output')
    .action(async (flags: SimulateFlags) => {
      const output = processOutput(flags.json === true);
      const result = (await runStorageOperation(
        'svc simulate',
        'simulate',
        {
          profile: flags.profile,
          queries: flags.queries,
          days: flags.days,
          devices: flags.devices,
          ...(flags.seed === undefined ? {} : { seed: flags.seed }),
          ...(flags.device === undefined ? {} : { device: flags.device }),
          ...(flags.at === undefined ? {} : { at: flags.at }),
        },
        flags,
        output,
      )) as SimulateResult;
      output.result(result, () => describe(result));
    });
}
