import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.js';
import type { AccountFeedbackFixture } from './account-feedback.fixture.js';

/** Feedback (ROUTES.md). */
export function accountFeedback(fx: AccountFeedbackFixture): void {
  const { session, call, latest } = fx;
  describe('POST /v1/feedback (ROUTES.md)', () => {
    it('stores feedback with account, organisation and time and answers 202 {id}', async () => {
      const answer = await call('/v1/feedback', {
        method: 'POST',
        headers: fx.owner.auth,
        body: { message: 'Love the map', rating: 5, url: 'https://dash.example/analytics' },
      });
      expect(answer.status, answer.text).toBe(202);
      const { id } = answer.json as { id: string };
      const stored = (await latest()).feedback.find((row) => row.id === id);
      expect(stored).toMatchObject({
        accountId: fx.ownerId,
        message: 'Love the map',
        rating: 5,
        url: 'https://dash.example/analytics',
      });
      expect(stored?.orgId).toEqual(expect.any(String));
      expect(stored?.createdAt.getTime()).toBe(fx.api.clock.now().getTime());
      const bySession = await call('/v1/feedback', {
        method: 'POST',
        headers: session(fx.owner),
        body: { message: 'no rating' },
      });
      expect(bySession.status).toBe(202);
    });

    it('refuses an empty or too long message and a rating outside 1..5 with 422, no credential with 401', async () => {
      for (const body of [
        {},
        { message: '' },
        { message: 'x'.repeat(5001) },
        { message: 'x', rating: 0 },
        { message: 'x', rating: 6 },
        { message: 'x', rating: 2.5 },
      ]) {
        expectProblem(
          await call('/v1/feedback', { method: 'POST', headers: fx.owner.auth, body }),
          422,
          'validation_failed',
        );
      }
      expectProblem(
        await call('/v1/feedback', { method: 'POST', body: { message: 'x' } }),
        401,
        'unauthenticated',
      );
    });
  });
}
