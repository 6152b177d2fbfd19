import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { totpCode } from '@svc/testing/totp';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderRoute } from '../../testing/render-page.js';

let server: InProcessApi;
let client: SvcClient;

beforeAll(async () => {
  server = await startInProcessApi();
});
afterAll(() => server.close());
beforeEach(async () => {
  ({ client } = await signedIn(server));
});

const notices = () => screen.getByRole('region', { name: 'Notifications' });
const section = () => screen.getByRole('region', { name: 'Authenticator app' });

/** Turns the app on through the API with the previous step's code, so the page can use the current one. */
async function enabledElsewhere(): Promise<{ secret: string; recoveryCodes: readonly string[] }> {
  const enrolment = await client.auth.totp.start();
  const enabled = await client.auth.totp.confirm(totpCode(enrolment.secret, new Date(Date.now() - 30_000)));
  return { secret: enrolment.secret, recoveryCodes: enabled.recovery_codes ?? [] };
}

describe('Authenticator app on the sign-in and security page', () => {
  it('turns the app on with its first code, says so in a notice and keeps focus in the section', async () => {
    const { user } = renderRoute('/account/security');
    await user.click(
      await within(await screen.findByRole('region', { name: 'Authenticator app' })).findByRole('button', {
        name: 'Set up an authenticator app',
      }),
    );
    const secret =
      (
        await within(section()).findByText((_, element) => element?.classList.contains('secret') === true)
      ).textContent?.replace(/\s+/g, '') ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

    await user.type(within(section()).getByLabelText('Code from the app'), totpCode(secret, new Date()));
    await user.click(within(section()).getByRole('button', { name: 'Turn on' }));

    expect(await within(notices()).findByText('Authenticator app turned on.')).toBeInTheDocument();
    expect(within(section()).getByRole('heading', { name: 'Authenticator app' })).toHaveFocus();
    expect(within(section()).getByRole('list', { name: 'Recovery codes' })).toBeInTheDocument();
    expect(await client.auth.totp.status()).toMatchObject({ enabled: true });
  });

  it('refuses a wrong first code, says so beside the form with no notice, and leaves the app off', async () => {
    const { user } = renderRoute('/account/security');
    await user.click(
      await within(await screen.findByRole('region', { name: 'Authenticator app' })).findByRole('button', {
        name: 'Set up an authenticator app',
      }),
    );
    await user.type(await within(section()).findByLabelText('Code from the app'), '000000');
    await user.click(within(section()).getByRole('button', { name: 'Turn on' }));

    const problem = await within(section()).findByRole('alert');
    expect(problem).toHaveTextContent('That code did not work');
    expect(within(section()).getByLabelText('Code from the app')).toBeInTheDocument();
    expect(within(notices()).queryByText('Authenticator app turned on.')).not.toBeInTheDocument();
    expect(await client.auth.totp.status()).toMatchObject({ enabled: false });
  });

  it('turns the app off with a current code, says so in a notice and offers to set it up again', async () => {
    const { secret } = await enabledElsewhere();
    const { user } = renderRoute('/account/security');
    const on = await within(await screen.findByRole('region', { name: 'Authenticator app' })).findByText(
      /^Your authenticator app is on/,
    );
    expect(on).toBeInTheDocument();

    await user.click(within(section()).getByText('Turn off the authenticator app'));
    await user.type(within(section()).getByLabelText('Current code'), totpCode(secret, new Date()));
    await user.click(within(section()).getByRole('button', { name: 'Turn off' }));

    expect(await within(notices()).findByText('The authenticator app is off.')).toBeInTheDocument();
    expect(within(section()).getByRole('heading', { name: 'Authenticator app' })).toHaveFocus();
    expect(
      within(section()).getByRole('button', { name: 'Set up an authenticator app' }),
    ).toBeInTheDocument();
    expect(await client.auth.totp.status()).toMatchObject({ enabled: false });
  });
});

describe('Recovery codes on the sign-in and security page', () => {
  it('replaces the codes, shows the new ones, says the old ones stop working and keeps focus on the button', async () => {
    const { recoveryCodes } = await enabledElsewhere();
    expect(recoveryCodes).toHaveLength(10);
    const { user } = renderRoute('/account/security');
    const recovery = await screen.findByRole('region', { name: 'Recovery codes' });
    expect(await within(recovery).findByText('You have 10 unused recovery codes.')).toBeInTheDocument();
    const replace = within(recovery).getByRole('button', { name: 'Make new recovery codes' });

    await user.click(replace);

    expect(
      await within(notices()).findByText('New recovery codes made: the old ones no longer work.'),
    ).toBeInTheDocument();
    const shown = within(within(recovery).getByRole('list', { name: 'Recovery codes' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(shown).toHaveLength(10);
    expect(shown.filter((code) => recoveryCodes.includes(code ?? ''))).toEqual([]);
    expect(replace).toHaveFocus();
    expect(await client.auth.recoveryCodes.remaining()).toBe(10);
  });
});
