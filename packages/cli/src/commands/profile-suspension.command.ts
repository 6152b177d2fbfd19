import type { ProfileSuspension } from '@svc/sdk';
import type { Command } from 'commander';
import { apiAction, apiOptions, confirm } from '../api/api-command.js';
import { registerProfileAllow } from './profile-allow.command.js';
import { registerProfilePause } from './profile-pause.command.js';

function describeSuspension(state: ProfileSuspension): string {
  const head = `profile ${state.profile_id} (${state.name}, organisation ${state.org_id}, version ${state.version})`;
  return state.suspended
    ? `${head}: suspended since ${state.suspended_at} by ${state.suspended_by}\nreason: ${state.reason}`
    : `${head}: not suspended`;
}

/**
 * `svc profiles show|suspend|reinstate` (RUNNER.md): profile suspension through the API (spec 3); the owner's
 * `pause|resume` share the group.
 */
export function registerProfileSuspension(program: Command): void {
  const profiles = program
    .command('profiles')
    .description(
      'profile suspension (API client, scope admin), pauses and allowances (scope profiles:write)',
    );
  registerProfilePause(profiles);
  registerProfileAllow(profiles);
  apiOptions(
    profiles.command('show').description('a profile’s suspension state').argument('<id>', 'the profile’s id'),
  ).action(
    apiAction(async ({ client, output }, id: string) => {
      const state = await client.admin.profiles.get(id);
      output.result(state, () => describeSuspension(state));
    }),
  );
  apiOptions(
    profiles
      .command('suspend')
      .description('suspend a profile: it resolves without filtering or logging; its owner cannot change it')
      .argument('<id>', 'the profile’s id')
      .requiredOption('--reason <text>', 'why (operators only; never shown to the owner)')
      .option('--yes', 'do not ask for confirmation'),
  ).action(
    apiAction(async ({ client, output }, id: string, flags: { reason: string; yes?: boolean }) => {
      if (!(await confirm(`suspend profile ${id}`, flags.yes))) {
        output.error('not suspended');
        process.exitCode = 1;
        return;
      }
      const state = await client.admin.profiles.update(id, { suspended: true, reason: flags.reason });
      output.result(state, () => describeSuspension(state));
    }),
  );
  apiOptions(
    profiles
      .command('reinstate')
      .description('lift a profile’s suspension')
      .argument('<id>', 'the profile’s id')
      // Reinstating changes nothing the owner could lose, so it never asks; --yes is accepted all the same,
      // so that scripts can pass it to every profile command alike.
      .option('--yes', 'accepted for symmetry with suspend; reinstating never asks'),
  ).action(
    apiAction(async ({ client, output }, id: string, _flags: { yes?: boolean }) => {
      const state = await client.admin.profiles.update(id, { suspended: false });
      output.result(state, () => describeSuspension(state));
    }),
  );
}
