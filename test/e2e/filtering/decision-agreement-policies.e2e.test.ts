import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatedDecisions } from '@svc/edge-simulator';
import { loggedDecision, NodeFilter } from '@svc/node-agent-kit';
import type { NodeProfileDocument } from '@svc/sdk';
import { nodeProfileDocument } from '@svc/testing/node-profile-document';
import { decode } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DnsResolver,
  DohListener,
  FilterInForce,
  QueryLogStore,
} from '../../../examples/reference-node/src/index.js';
import { edeOf, queryMessage, rcodeOf } from '../../../examples/reference-node/tests/support/dns-client.js';
import {
  startTestUpstream,
  type TestUpstream,
} from '../../../examples/reference-node/tests/support/test-upstream.js';

const NXDOMAIN = 3;
// 2026-11-27 is a Friday; New York is at -05:00 then. School nights: Monday to Friday 21:00–06:30 there.
const EVENING = Date.parse('2026-11-28T01:30:00Z'); // Friday 20:30
const NIGHT = Date.parse('2026-11-28T03:00:00Z'); // Friday 22:00
const HOMEWORK = Date.parse('2026-11-27T21:30:00Z'); // Friday 16:30
const ALLOWANCE_END = '2026-11-28T02:00:00.000Z';

/** A household's document: a bedtime, a homework-only deny rule, an allowance and three devices. */
const DOCUMENT: NodeProfileDocument = nodeProfileDocument({
  settings: { time_zone: 'America/New_York', block_mode: 'nxdomain' },
  rules: {
    deny: ['games.agree.example', 'video.agree.example'],
    allow: ['school.agree.example'],
    rewrites: [{ pattern: 'printer.agree.example', answer: '192.168.1.9' }],
  },
  policy: {
    schedules: [
      {
        name: 'school-nights',
        windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '21:00', end: '06:30' }],
      },
      {
        name: 'homework',
        windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '16:00', end: '18:00' }],
      },
    ],
    bedtime: 'school-nights',
    schedule_assignments: [
      { target: { kind: 'deny', pattern: 'games.agree.example' }, schedule: 'homework', mode: 'only_during' },
    ],
    allowances: [{ domain: 'video.agree.example', service: null, until: ALLOWANCE_END }],
    devices: {
      tablet: { rules: { deny: ['chat.agree.example'], allow: [] }, bedtime: null },
      laptop: { assignments: [] },
      phone: { paused_until: '2026-11-28T03:30:00.000Z' },
    },
  },
});
const NAMES = [
  'news.agree.example',
  'games.agree.example',
  'video.agree.example',
  'school.agree.example',
  'chat.agree.example',
  'printer.agree.example',
];
const DEVICES = [undefined, 'tablet', 'laptop', 'phone', 'stranger'];
const TIMES = [HOMEWORK, EVENING, NIGHT];

/** A DoH GET with an OPT record, so that blocks carry their EDE. */
async function dohQuery(url: string, name: string) {
  const message = queryMessage(name, 'A', 0, {});
  const response = await fetch(`${url}?dns=${message.toString('base64url')}`);
  expect(response.status).toBe(200);
  return decode(Buffer.from(await response.arrayBuffer()));
}

interface Agreed {
  status: string;
  rule: string;
  decidedBy: string;
  ede: number;
  edeText: string;
}

/**
 * Issue 38: schedules, allowances, pauses and device overrides decide alike in the edge simulator
 * (`svc simulate --device --at`), the kit's NodeFilter and the reference node as a DoH client naming the device
 * by its path sees it (rcode, EDE) and as its log records it, for every device and time of a school day.
 */
describe('one decision for every edge: schedules and devices (issue 38)', () => {
  let directory: string;
  let filter: NodeFilter;
  let upstream: TestUpstream;
  let store: QueryLogStore;
  let doh: DohListener;
  let clock = EVENING;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'decision-agreement-policies-'));
    filter = new NodeFilter({ directory, token: () => 'svcnode_unused' });
    await filter.applyProfile(DOCUMENT);
    upstream = await startTestUpstream();
    store = await QueryLogStore.open();
    const profile = new FilterInForce(filter);
    const dns = new DnsResolver({
      profile: () => profile,
      upstream,
      upstreamTimeoutMs: 2_000,
      record: (query) => store.append(query),
      now: () => clock,
    });
    doh = await DohListener.listen(dns, '127.0.0.1', 0);
  });
  afterAll(async () => {
    await Promise.all([doh?.close(), upstream?.close()]);
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  const simulated = (device: string | undefined, at: number): Agreed[] =>
    simulatedDecisions(
      {
        settings: DOCUMENT.settings,
        rules: DOCUMENT.rules,
        lists: [],
        suspended: false,
        compiledLists: [],
        operatorBlocks: [],
        policy: { ...DOCUMENT, time_zone: DOCUMENT.settings.time_zone },
        decideAs: { ...(device === undefined ? {} : { device }), at },
      },
      NAMES,
    ).map(({ status, rule, decidedBy, ede, edeText }) => ({ status, rule, decidedBy, ede, edeText }));

  it('the simulator and the kit decide every name alike for every device and time', () => {
    const seen = new Set<string>();
    for (const at of TIMES)
      for (const device of DEVICES) {
        const byKit = NAMES.map((name) => {
          const decision = filter.decide({ name, at, ...(device === undefined ? {} : { device }) });
          const logged = loggedDecision(decision);
          seen.add(`${decision.reason} ${logged.decidedBy}`);
          return {
            status: decision.status,
            rule: logged.rule,
            decidedBy: logged.decidedBy,
            ede: decision.ede,
            edeText: decision.edeText,
          };
        });
        expect(byKit, `${device} at ${new Date(at).toISOString()}`).toEqual(simulated(device, at));
      }
    // Agreeing covers each new step, not only "forward".
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'schedule schedule:school-nights',
        'deny_rule schedule:homework',
        'deny_rule device:tablet',
        'allowance allowance',
        'allow_rule ',
        'paused paused',
        'rewrite ',
        'none ',
      ]),
    );
  });

  it('the reference node answers a DoH client naming the device and logs each name as the simulator decided', async () => {
    for (const at of TIMES)
      for (const device of DEVICES) {
        clock = at;
        const expected = simulated(device, at);
        for (const [index, name] of NAMES.entries()) {
          const want = expected[index] as Agreed;
          const url = device === undefined ? doh.url : `${doh.url}/${device}`;
          const answer = await dohQuery(url, name);
          const context = `${name} as ${device} at ${new Date(at).toISOString()}`;
          if (want.status === 'blocked') {
            expect(rcodeOf(answer), context).toBe(NXDOMAIN);
            expect(edeOf(answer), context).toEqual({ code: want.ede, text: want.edeText });
          } else expect(rcodeOf(answer), context).toBe(0);
          expect([...store.newestFirst()][0], context).toMatchObject({
            qname: name,
            status: want.status,
            device_id: device ?? '',
          });
        }
      }
  });
});
