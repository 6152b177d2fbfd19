import { describe, expect, it } from 'vitest';
import { parseSettings, RawSettings, SettingsError, settingsForBoundUrl } from '../src/settings/settings.js';

const base = { SVC_ENV: 'production', SVC_SECRET: 'a-production-secret-of-at-least-32-chars' };

function issuesOf(source: Record<string, string>): { setting: string; message: string }[] {
  try {
    parseSettings({ ...base, ...source });
  } catch (error) {
    if (error instanceof SettingsError) return error.issues;
    throw error;
  }
  return [];
}

/** Issue 37: settings grouped in sections, each module handed its own; the variables do not change. */
describe('settings in sections', () => {
  it('puts each variable in its section, with the defaults of RUNNER.md', () => {
    const settings = parseSettings({
      ...base,
      HOST: '0.0.0.0',
      PORT: '9000',
      DATABASE_URL: 'postgres://svc@db:5432/svc',
      NATS_URL: 'nats://bus:4222',
      SMTP_URL: 'smtp://mail:25',
      SVC_RULES_LIMIT: '50',
      SVC_LIST_FETCH_TIMEOUT_SECONDS: '7',
      SVC_QUERY_TIMEOUT_SECONDS: '2.5',
    });
    expect(settings.env).toBe('production');
    expect(settings.http).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      baseUrl: 'http://0.0.0.0:9000',
      problemBase: 'http://0.0.0.0:9000/problems',
      secureCookies: true,
      rateLimitPerMinute: 300,
      shutdownDelaySeconds: 0,
    });
    expect(settings.storage).toEqual({
      dataDir: './.svc-data',
      databaseUrl: 'postgres://svc@db:5432/svc',
      clickhouseUrl: undefined,
      allowEmbedded: false,
    });
    expect(settings.bus).toEqual({ natsUrl: 'nats://bus:4222', natsTlsCa: undefined });
    expect(settings.mail).toEqual({ smtpUrl: 'smtp://mail:25' });
    expect(settings.accounts).toEqual({
      signupMode: 'closed',
      signupAllowlist: [],
      deletionCoolingOffDays: 14,
    });
    expect(settings.limits).toEqual({
      rulesPerProfile: 50,
      linkedIps: { perProfile: 20, perAccount: 100 },
      ecsOperatorCap: { v4: 32, v6: 128 },
    });
    expect(settings.lists).toMatchObject({ refreshHours: 24, fetchTimeoutMs: 7000, mirrorUrl: undefined });
    expect(settings.queryLogs.cloudQueryLimits.maxExecutionSeconds).toBe(2.5);
    expect(settings.observability).toEqual({
      logLevel: 'info',
      metricsToken: undefined,
      metricsEnabled: true,
    });
    expect(settings.nodes.linkBudget).toEqual({ bytesPerSecond: 8_388_608, messagesPerSecond: 100 });
    expect(settings.dashboard).toMatchObject({ url: 'http://0.0.0.0:9000', servedBySvc: true });
  });

  it('follows the mode where a section defaults on it', () => {
    const development = parseSettings({ SVC_ENV: 'development' });
    expect(development.accounts.signupMode).toBe('open');
    expect(development.http.secureCookies).toBe(false);
    expect(development.keys.secret).toBeUndefined();
  });

  it('keeps every variable, in the documented order, SVC_ENV first', () => {
    const names = Object.keys(RawSettings.shape);
    expect(names).toHaveLength(49);
    expect(names.slice(0, 4)).toEqual(['SVC_ENV', 'HOST', 'PORT', 'SVC_DATA_DIR']);
    expect(names.at(-1)).toBe('SVC_OUTBOUND_ALLOW_PRIVATE');
  });

  it('names the variable a bad value or a typo came from, as before', () => {
    expect(issuesOf({ SVC_NODE_LINK_BYTES_PER_SECOND: '1024' })).toEqual([
      {
        setting: 'SVC_NODE_LINK_BYTES_PER_SECOND',
        message: 'must be at least 2097152 (twice the largest link message)',
      },
    ]);
    expect(issuesOf({ SVC_RULES_LIMITS: '10' })).toEqual([
      { setting: 'SVC_RULES_LIMITS', message: 'unknown setting' },
    ]);
    expect(issuesOf({ SMTP_URL: 'http://mail' })).toEqual([
      { setting: 'SMTP_URL', message: 'must be a URL with scheme smtp or smtps' },
    ]);
  });

  it('moves the HTTP and dashboard sections to the bound port only when the base URL was not set', () => {
    const defaulted = parseSettings({ ...base, PORT: '0' });
    const bound = settingsForBoundUrl(defaulted, 'http://127.0.0.1:40001');
    expect(bound.http).toMatchObject({
      baseUrl: 'http://127.0.0.1:40001',
      problemBase: 'http://127.0.0.1:40001/problems',
    });
    expect(bound.dashboard.url).toBe('http://localhost:40001');
    expect(bound.storage).toBe(defaulted.storage);
    const configured = parseSettings({ ...base, PORT: '0', SVC_BASE_URL: 'https://api.example.com/' });
    expect(settingsForBoundUrl(configured, 'http://127.0.0.1:40001')).toBe(configured);
    expect(configured.http.baseUrl).toBe('https://api.example.com');
  });
});
