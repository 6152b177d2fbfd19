import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../testing/api-session.js';
import { renderComponent } from '../../testing/render-page.js';
import type { LogRow } from './log-row.js';
import { LogRowDetails } from './log-row-details.js';

let server: InProcessApi;
let profileId: string;

beforeAll(async () => {
  server = await startInProcessApi();
  const { client } = await signedIn(server);
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
