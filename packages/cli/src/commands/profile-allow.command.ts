import type { Command } from 'commander';
import { apiAction, apiOptions, wholeNumber } from '../api/api-command.js';

/** The longest allowance the API takes, in minutes (one day). */
const MAX_ALLOWANCE_MINUTES = 1440;

/**
 * `svc profiles allow <id> <domain> --minutes N` and `svc profiles allow <id> --service <service> --minutes N`
 * (issue 38): a timed allowance through the API, with a token of scope profiles:write; `svc profiles
 * allowances <id>` lists those running. Minutes out of range are a usage error before any request.
 */
export function registerProfileAllow(profiles: Command): void {
  apiOptions(
    profiles
      .command('allow')
      .description(
        'allow a domain, or unblock a parental service, for N minutes from now (scope profiles:write)',
      )
      .argument('<id>', 'the profile’s id')
      .argument('[domain]', 'the name to allow, with its subdomains')
      .option('--service <service>', 'a parental service id to unblock instead of a domain')
      .requiredOption('--minutes <n>', `how long, 1 to ${MAX_ALLOWANCE_MINUTES}`),
  ).action(
    apiAction(
      async (
        { client, output },
        id: string,
        domain: string | undefined,
        flags: { minutes: string; service?: string },
      ) => {
        const minutes = wholeNumber('--minutes', flags.minutes, MAX_ALLOWANCE_MINUTES);
        const target = flags.service === undefined ? { domain } : { service: flags.service };
        const allowance = await client.profiles.allowances.create(id, { ...target, minutes });
        const what = allowance.domain ?? `service ${allowance.service}`;
        output.result(allowance, () => `profile ${id}: ${what} allowed until ${allowance.expires_at}`);
      },
    ),
  );
  apiOptions(
    profiles
      .command('allowances')
      .description('the timed allowances of a profile still running (scope profiles:read)')
      .argument('<id>', 'the profile’s id'),
  ).action(
    apiAction(async ({ client, output }, id: string) => {
      const allowances = await client.profiles.allowances.list(id);
      output.result(allowances, () =>
        allowances.length === 0
          ? `profile ${id}: no allowance running`
          : allowances
              .map(
                (allowance) =>
                  `${allowance.id}  ${allowance.domain ?? `service ${allowance.service}`}  until ${allowance.expires_at}`,
              )
              .join('\n'),
      );
    }),
  );
}
