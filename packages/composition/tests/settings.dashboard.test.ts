import { describe, expect, it } from 'vitest';
import { parseSettings, settingsForBoundUrl } from '../src/settings/settings.js';

/** Where emailed links lead when svc serves the dashboard itself (issue 36: passkeys need `localhost`). */
describe('dashboard address of a server serving its own dashboard', () => {
  const base = { SVC_ENV: 'development' };

  it('on loopback, leads emailed links to localhost, where passkeys work, and accepts both names', () => {
    const settings = parseSettings({ ...base, HOST: '127.0.0.1', PORT: '8080' });
    expect(settings.http.baseUrl).toBe('http://127.0.0.1:8080');
    expect(settings.dashboard.url).toBe('http://localhost:8080');
    expect(settings.dashboard.origins).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(settings.dashboard.webauthnRpId).toBe('localhost');
  });

  it('names the bound port once a PORT of 0 is bound', () => {
    const settings = settingsForBoundUrl(
      parseSettings({ ...base, HOST: '127.0.0.1', PORT: '0' }),
      'http://127.0.0.1:41234',
    );
    expect(settings.dashboard.url).toBe('http://localhost:41234');
  });

  it('keeps a base URL that is not loopback, and a dashboard URL that was set, as they are', () => {
    const external = parseSettings({ ...base, SVC_BASE_URL: 'https://api.example.com' });
    expect(external.dashboard.url).toBe('https://api.example.com');
    const hosted = parseSettings({
      ...base,
      HOST: '127.0.0.1',
      SVC_DASHBOARD_URL: 'http://127.0.0.1:5173',
    });
    expect(hosted.dashboard.url).toBe('http://127.0.0.1:5173');
  });
});
