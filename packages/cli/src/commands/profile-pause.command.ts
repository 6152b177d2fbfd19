import type { Command } from 'commander';
import { apiAction, apiOptions, wholeNumber } from '../api/api-command.js';

/** The longest pause the API takes, in minutes (one day). */
const MAX_PAUSE_MINUTES = 1440;

/**
 * `svc profiles pause|resume` (issue 38): the owner's timed pause through the API, with a token of scope
 * profiles:write. Minutes out of range are a usage error before any request.
 */
export function registerProfilePause(profiles: Command): void {
  apiOptions(
    profiles
      .command('pause')
      .description(
        'pause a profile’s own filtering for N minutes from now (scope profiles:write); operator blocks still apply',
      )
      .argument('<id>', 'the profile’s id')
      .requiredOption('--minutes <n>', `how long, 1 to ${MAX_PAUSE_MINUTES}; replaces a running pause`),
  ).action(
    apiAction(async ({ client, output }, id: string, flags: { minutes: string }) => {
      const minutes = wholeNumber('--minutes', flags.minutes, MAX_PAUSE_MINUTES);
      const pause = await client.profiles.pause(id, minutes);
      output.result(pause, () => `profile ${id}: filtering paused until ${pause.paused_until}`);
    }),
  );
  apiOptions(
    profiles
      .command('resume')
      .description('end a profile’s pause at once (scope profiles:write); nothing happens when not paused')
      .argument('<id>', 'the profile’s id'),
  ).action(
    apiAction(async ({ client, output }, id: string) => {
      await client.profiles.resume(id);
      output.result({ id, paused_until: null }, () => `profile ${id}: filtering resumed`);
    }),
  );
}
