import { expect, it } from 'vitest';
import { call, joinAs } from '../../support/members.js';
import type { WebhooksFixture } from './webhooks.fixture.js';

const MEMBER_EVENTS = [
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.ownership_transferred',
];

/** What a receiver parses of a delivery's body. */
interface ReceivedEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Member events (issue 40 follow-up): each change of the organisation's members reaches its endpoints. */
export function describeMemberEvents(fixture: WebhooksFixture): void {
  const { receiver, createWebhook, deliverAfter } = fixture;

  // Early in the suite: inviting and transferring ownership need sign-ins within the last five minutes.
  it('sends member.invited, member.joined, member.role_changed, member.ownership_transferred and member.removed with their data', async () => {
    const { api, owner } = fixture.state;
    await createWebhook('/members', { events: MEMBER_EVENTS });
    const ownerSession = { cookie: `svc_session=${owner.cookie}` };
    const ownerId = (
      (await call(api, 'GET', '/v1/auth/me', ownerSession)).json as { account: { id: string } }
    ).account.id;

    const member = await joinAs(api, ownerSession, 'editor');
    const promoted = await call(api, 'PATCH', `/v1/org/members/${member.id}`, ownerSession, {
      role: 'admin',
    });
    expect(promoted.status, promoted.text).toBe(200);
    // Handed over and back, so that the suite's owner stays the owner for the tests after this one.
    const handed = await call(api, 'POST', '/v1/org/ownership', ownerSession, { member_id: member.id });
    expect(handed.status, handed.text).toBe(200);
    const back = await call(api, 'POST', '/v1/org/ownership', member.session, { member_id: ownerId });
    expect(back.status, back.text).toBe(200);
    const removed = await call(api, 'DELETE', `/v1/org/members/${member.id}`, ownerSession);
    expect(removed.status, removed.text).toBe(204);
    // A refused change announces nothing: the owner cannot be removed (409 organisation_has_members).
    const refused = await call(api, 'DELETE', `/v1/org/members/${ownerId}`, ownerSession);
    expect(refused.status, refused.text).toBe(409);

    for (let round = 0; round < 7; round += 1) await deliverAfter();
    const events = receiver.at('/members').map((request) => JSON.parse(request.body) as ReceivedEvent);
    expect(events.map((event) => event.type)).toEqual([
      'member.invited',
      'member.joined',
      'member.role_changed',
      'member.ownership_transferred',
      'member.ownership_transferred',
      'member.removed',
    ]);
    const [invited, joined, roleChanged, handedOver, handedBack, gone] = events.map((event) => event.data);
    expect(invited).toEqual({
      invitation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: member.email,
      role: 'editor',
      expires_at: expect.any(String),
    });
    expect(joined).toEqual({
      member_id: member.id,
      email: member.email,
      role: 'editor',
      invitation_id: invited?.invitation_id,
    });
    expect(roleChanged).toEqual({
      member_id: member.id,
      email: member.email,
      role: 'admin',
      previous_role: 'editor',
    });
    expect(handedOver).toEqual({ member_id: member.id, email: member.email, previous_owner_id: ownerId });
    expect(handedBack).toEqual({ member_id: ownerId, email: owner.email, previous_owner_id: member.id });
    expect(gone).toEqual({ member_id: member.id, email: member.email, role: 'admin' });
    // An invitation is valid for seven days from the moment it is announced.
    const sentAt = Date.parse(events[0]?.timestamp ?? '');
    expect(Date.parse(String(invited?.expires_at)) - sentAt).toBe(7 * 24 * 3_600_000);
  });
}
