import { parseSettings } from '@svc/composition';
import { describe, expect, it } from 'vitest';
import { productionRefusals } from '../src/settings/production-requirements.js';

const ON_SERVERS = { postgres: false, columnar: false };

function refusalsWith(env: 'production' | 'development', trustProxy: string): string[] {
  const settings = parseSettings({
    SVC_ENV: env,
    SVC_SECRET: 'production-requirements-secret-0123456789',
    SVC_METRICS_TOKEN: 'production-requirements-metrics',
    SVC_TRUST_PROXY: trustProxy,
  });
  return (productionRefusals(settings, ON_SERVERS)?.issues ?? []).map(
    (issue) => `${issue.setting}: ${issue.message}`,
  );
}

describe('SVC_TRUST_PROXY in production (issue 35)', () => {
  it.each(['true', '1', '2', '10.0.0.1,true', '10.0.0.0/33', 'proxy.internal'])(
    'refuses %s, naming the setting',
    (value) => {
      const [refusal, ...rest] = refusalsWith('production', value);
      expect(rest).toEqual([]);
      expect(refusal).toMatch(/^SVC_TRUST_PROXY: .*addresses or CIDRs/);
    },
  );

  it.each(['10.0.0.1', '10.0.0.0/8, fd00::/8', '172.30.0.10,loopback', 'uniquelocal', '::1', 'false'])(
    'accepts addresses, CIDRs and named ranges: %s',
    (value) => {
      expect(refusalsWith('production', value)).toEqual([]);
    },
  );

  it('keeps true and hop counts in development', () => {
    expect(refusalsWith('development', 'true')).toEqual([]);
    expect(refusalsWith('development', '2')).toEqual([]);
  });
});
