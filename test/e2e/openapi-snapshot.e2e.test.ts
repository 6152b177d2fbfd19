import { createTestApp } from '@svc/http-server';
import { describe, expect, it } from 'vitest';
import { send } from '../support/http.js';

/** The server address the committed document names (the default of `npm start`), whatever port tests use. */
const SNAPSHOT_BASE_URL = 'http://127.0.0.1:8080';

describe('the committed OpenAPI document, docs/openapi.yaml (API changes show in review)', () => {
  it('is exactly what the server serves at GET /v1/openapi.yaml', async () => {
    const app = await createTestApp({ env: { SVC_BASE_URL: SNAPSHOT_BASE_URL } });
    try {
      const served = await send(`${app.url}/v1/openapi.yaml`);
      expect(served.status).toBe(200);
      expect(served.text).toContain(`url: ${SNAPSHOT_BASE_URL}\n`);
      await expect(
        served.text,
        'the API changed: run `npm run openapi:snapshot` and commit docs/openapi.yaml',
      ).toMatchFileSnapshot('../../docs/openapi.yaml');
    } finally {
      await app.close();
    }
  });
});
