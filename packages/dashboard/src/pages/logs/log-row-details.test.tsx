import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderComponent } from '../../testing/render-page.js';
import type { LogRow } from './log-row.js';
import { LogRowDetails } from './log-row-details.js';

let server: InProcessApi;
let profileId: string;
let client: Awaited<ReturnType<typeof signedIn>>['client'];

beforeAll(async () => {
  server = await startInProcessApi();
  ({ client } = await signedIn(server));
  profileId = (await client.profiles.create({ name: 'Home' })).id;
});
afterAll(() => server.close());

const BLOCKED: LogRow = {
  ts: '2026-11-27T21:05:00.000Z',
  source: 'cloud',
  pop: 'no-such-pop',
  node: null,
  device_id: 'dev_1',
  device_name: 'kids-tablet',
  client_ip: '',
  transport: 'dot',
  qname: 'ads.example',
  qtype: 28,
  status: 'blocked',
  reason_list_id: 1,
  reason_rule: '',
  rcode: 0,
  dnssec_validated: true,
  cache_hit: true,
  latency_us: 1250,
  answer_ips: [],
  reason: 'list:1',
  reason_code: 'list',
  ede_code: 15,
  ede_text: 'Blocked by a list',
  decided_by: '',
};

/** The definition list's values by their terms. */
function facts(region: HTMLElement): Record<string, string> {
  const found: Record<string, string> = {};
  for (const term of within(region).getAllByRole('term'))
    found[term.textContent ?? ''] = term.nextElementSibling?.textContent ?? '';
  return found;
}

describe(LogRowDetails.name, () => {
  it('tells in words why a query was blocked, how it came and who answered it', async () => {
    renderComponent(<LogRowDetails profileId={profileId} row={BLOCKED} onClose={() => undefined} />);
    const region = screen.getByRole('region', { name: 'ads.example' });
    expect(facts(region)).toMatchObject({
      Status: 'Blocked (NOERROR)',
      'Decided by': 'A blocklist',
      'Extended DNS Error': '15 (Blocked): Blocked by a list',
      'Answer addresses': 'none',
      Type: 'AAAA',
      Device: 'kids-tablet (dev_1)',
      Client: 'not logged',
      Transport: 'DNS over TLS',
      'Answered by': 'PoP no-such-pop, 1.3 ms, from the cache, DNSSEC validated',
    });
    expect(await within(region).findByText(/^StevenBlack|\(id 1\)$/)).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Allow this domain' })).toBeInTheDocument();
    expect(
      within(region).getByRole('button', { name: 'Report this as wrongly blocked' }),
    ).toBeInTheDocument();
  });

  it('names an operator block by its kind, offers no way round it, and an unknown code as it came', () => {
    renderComponent(
      <LogRowDetails
        profileId={profileId}
        row={{
          ...BLOCKED,
          reason_code: 'operator:abuse',
          reason: 'operator:abuse',
          reason_list_id: null,
          rcode: 3,
        }}
        onClose={() => undefined}
      />,
    );
    const region = screen.getByRole('region', { name: 'ads.example' });
    expect(facts(region)).toMatchObject({
      Status: 'Blocked (NXDOMAIN)',
      'Decided by': 'The operator, to stop abuse',
      Reason: 'Blocked by the operator to stop abuse',
    });
    expect(within(region).queryByRole('button', { name: 'Allow this domain' })).not.toBeInTheDocument();
    expect(region).not.toHaveTextContent('operator:abuse');
  });
});

describe('Log row details: policy and allowances (issue 38)', () => {
  it('names the policy that decided a row in words, from decided_by', () => {
    const cases = [
      ['paused', 'Paused: the profile’s filtering was paused'],
      ['allowance', 'Allowance: a timed allowance let it through'],
      ['schedule:bedtime', 'Schedule bedtime (bedtime or a limit it sets)'],
      ['device:dev_1', 'Device dev_1’s own settings'],
    ] as const;
    for (const [decidedBy, words] of cases) {
      const { unmount } = renderComponent(
        <LogRowDetails
          profileId={profileId}
          row={{ ...BLOCKED, decided_by: decidedBy }}
          onClose={() => undefined}
        />,
      );
      expect(facts(screen.getByRole('region', { name: 'ads.example' }))['Decided by']).toBe(words);
      unmount();
    }
  });

  it('allows a blocked domain for 15 minutes: says until when and the allowance is stored', async () => {
    const { user } = renderComponent(
      <LogRowDetails
        profileId={profileId}
        row={{ ...BLOCKED, qname: 'games.example' }}
        onClose={() => undefined}
      />,
    );
    const group = screen.getByRole('group', { name: 'Allow for' });
    const before = Date.now();
    await user.click(within(group).getByRole('button', { name: '15 minutes' }));

    expect(await within(group).findByRole('status')).toHaveTextContent(/^games\.example is allowed until /);
    const stored = (await client.profiles.allowances.list(profileId)).find(
      (each) => each.domain === 'games.example',
    );
    expect(stored?.service).toBeNull();
    const minutes = (Date.parse(stored?.expires_at ?? '') - before) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15.1);
  });

  it('shows the 422 of a name the API refuses at its field, and stores nothing', async () => {
    const { user } = renderComponent(
      <LogRowDetails
        profileId={profileId}
        row={{ ...BLOCKED, qname: 'bad name!' }}
        onClose={() => undefined}
      />,
    );
    const group = screen.getByRole('group', { name: 'Allow for' });
    await user.click(within(group).getByRole('button', { name: '1 hour' }));

    const alert = await within(group).findByRole('alert');
    expect(within(alert).getByRole('link', { name: /^Domain/ })).toBeInTheDocument();
    expect(
      (await client.profiles.allowances.list(profileId)).some((each) => each.domain === 'bad name!'),
    ).toBe(false);
  });

  it('offers no allowance for an operator block', () => {
    renderComponent(
      <LogRowDetails
        profileId={profileId}
        row={{ ...BLOCKED, reason_code: 'operator:csam', reason: 'operator:csam' }}
        onClose={() => undefined}
      />,
    );
    expect(screen.queryByRole('group', { name: 'Allow for' })).not.toBeInTheDocument();
  });
});
