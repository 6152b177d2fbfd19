import { describe, expect, it } from 'vitest';
import { parseSettings, SettingsError } from '../src/settings/settings.js';

/** Issue 32: the settings that let one server run in a cluster of them. */
describe('settings of a clustered server', () => {
  const base = { SVC_ENV: 'development' };
  const refusal = (source: Record<string, string>) => {
    try {
      parseSettings({ ...base, ...source });
    } catch (error) {
      if (error instanceof SettingsError) return error.issues.map((issue) => issue.setting);
      throw error;
    }
    return [];
  };

  it('takes NATS_URL as the comma-separated servers of one cluster', () => {
    const settings = parseSettings({
      ...base,
      NATS_URL: ' nats://10.0.0.1:4222, nats://10.0.0.2:4222 ,tls://n3:4222',
    });
    expect(settings.bus.natsUrl).toBe('nats://10.0.0.1:4222,nats://10.0.0.2:4222,tls://n3:4222');
    expect(parseSettings({ ...base, NATS_URL: 'nats://127.0.0.1:4222' }).bus.natsUrl).toBe(
      'nats://127.0.0.1:4222',
    );
  });

  it('takes the NATS user in NATS_URL and the CA of its certificates in NATS_TLS_CA', () => {
    const settings = parseSettings({
      ...base,
      NATS_URL: 'nats://svc-api:s%40cret@nats-1:4222,nats://nats-2:4222',
      NATS_TLS_CA: '/etc/svc/nats-ca.pem',
    });
    expect(settings.bus.natsUrl).toBe('nats://svc-api:s%40cret@nats-1:4222,nats://nats-2:4222');
    expect(settings.bus.natsTlsCa).toBe('/etc/svc/nats-ca.pem');
    expect(parseSettings(base).bus.natsTlsCa).toBeUndefined();
  });

  it.each([
    ['a server of another scheme', 'nats://a:4222,http://b:4222'],
    ['no server at all', ' , '],
    ['something that is no URL', 'nats://a:4222,not a url'],
  ])('refuses a NATS_URL with %s', (_, value) => {
    expect(refusal({ NATS_URL: value })).toEqual(['NATS_URL']);
  });

  it("takes DATABASE_URL with several hosts in libpq's form, and target_session_attrs", () => {
    const url =
      'postgres://svc:secret@db-1:5432,db-2:5433/svc?target_session_attrs=read-write&sslmode=disable';
    expect(parseSettings({ ...base, DATABASE_URL: url }).storage.databaseUrl).toBe(url);
  });

  it.each([
    ['another scheme', 'mysql://db-1/svc'],
    ['an empty host in the list', 'postgres://db-1:5432,/svc'],
    ['a port that is no number', 'postgres://db-1:5432,db-2:x/svc'],
    ['a target_session_attrs svc does not follow', 'postgres://db-1,db-2/svc?target_session_attrs=standby'],
  ])('refuses a DATABASE_URL with %s', (_, value) => {
    expect(refusal({ DATABASE_URL: value })).toEqual(['DATABASE_URL']);
  });

  it('waits SVC_SHUTDOWN_DELAY_SECONDS before draining only when set, at most a minute', () => {
    expect(parseSettings(base).http.shutdownDelaySeconds).toBe(0);
    expect(parseSettings({ ...base, SVC_SHUTDOWN_DELAY_SECONDS: '3' }).http.shutdownDelaySeconds).toBe(3);
    expect(refusal({ SVC_SHUTDOWN_DELAY_SECONDS: '61' })).toEqual(['SVC_SHUTDOWN_DELAY_SECONDS']);
    expect(refusal({ SVC_SHUTDOWN_DELAY_SECONDS: '-1' })).toEqual(['SVC_SHUTDOWN_DELAY_SECONDS']);
  });
});
