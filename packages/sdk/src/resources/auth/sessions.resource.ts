import type { SessionRecord } from '@svc/domain';
import type { RevokedCount, SessionList } from '../../identity.types.js';
import type { Transport } from '../../transport.js';

/** The account's signed-in sessions, `/v1/auth/sessions` (ROUTES.md); session only, tokens get 403. */
export class SessionsResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/auth/sessions: live sessions, newest first; `current` marks this client's own. */
  async list(): Promise<SessionRecord[]> {
    return (await this.transport.send<SessionList>({ method: 'GET', path: '/v1/auth/sessions' })).data
      .sessions;
  }

  /** DELETE /v1/auth/sessions: signs out every session but this one. */
  async revokeOthers(): Promise<RevokedCount> {
    return (await this.transport.send<RevokedCount>({ method: 'DELETE', path: '/v1/auth/sessions' })).data;
  }

  /**
   * DELETE /v1/auth/sessions/{id}: signs out one session. Revoking the current one clears the client's cookie,
   * as the server's answer says.
   */
  async revoke(id: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: `/v1/auth/sessions/${encodeURIComponent(id)}` });
  }
}
