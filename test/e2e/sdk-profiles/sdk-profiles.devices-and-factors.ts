import { DeviceSightings } from '@svc/domain';
import { createClient } from '@svc/sdk';
import { expect, it } from 'vitest';
import { totpCode } from '../../support/totp.js';
import {
  emailedToken,
  failureOf,
  otherThan,
  PASSWORD,
  type SdkProfilesFixture,
  STEP,
  signedIn,
  tokenClient,
} from './sdk-profiles.fixture.js';

/** Devices, list reports and second factors through the SDK (spec 4.3, 4.5, 5.4, 5.5.3). */
export function sdkDevicesReportsAndFactors(fx: SdkProfilesFixture): void {
  it('lists, names and forgets devices a resolver saw (spec 4.3)', async () => {
    const client = await tokenClient(fx.app);
    const profile = await client.profiles.create({ name: 'Devices' });
    const sightings = await fx.app.container.getAsync<DeviceSightings>(DeviceSightings);
    await sightings.record([
      {
        profileId: profile.id,
        name: 'living-room-tv',
        identification: 'doh_path',
        transport: 'doh',
        seenAt: fx.clock.now(),
      },
    ]);
    const [device] = await client.profiles.devices.list(profile.id).toArray();
    expect(device).toMatchObject({ id: 'living-room-tv', label: 'living-room-tv', kind: 'other' });
    const named = await client.profiles.devices.update(profile.id, 'living-room-tv', {
      display_name: 'TV',
      kind: 'tv',
    });
    expect(named).toMatchObject({ label: 'TV', kind: 'tv' });
    expect((await client.profiles.devices.get(profile.id, 'living-room-tv')).display_name).toBe('TV');
    expect((await client.profiles.get(profile.id)).version).toBe(profile.version);
    await client.profiles.devices.forget(profile.id, 'living-room-tv');
    expect((await failureOf(client.profiles.devices.forget(profile.id, 'nothing'))).code).toBe('not_found');
  });

  it('reports a domain a blocklist gets wrong and lists the reports (spec 4.5)', async () => {
    const client = await tokenClient(fx.app);
    const profile = await client.profiles.create({ name: 'Reports' });
    const [list] = (await client.catalogue.lists()).lists;
    if (list === undefined) throw new Error('the blocklist catalogue is empty');
    const { id } = await client.profiles.listReports.create(profile.id, {
      domain: 'Ads.Example.com.',
      list_id: list.id,
      kind: 'false_positive',
    });
    const reports = await client.profiles.listReports.list(profile.id).toArray();
    expect(reports).toEqual([
      expect.objectContaining({ id, domain: 'ads.example.com', list_id: list.id, status: 'open' }),
    ]);
  });

  it('turns TOTP on and off and replaces recovery codes through the session (spec 5.4)', async () => {
    const { session, email } = await signedIn(fx.app);
    const enrolment = await session.auth.totp.start();
    expect(enrolment.otpauth_uri).toContain(`secret=${enrolment.secret}`);
    const current = totpCode(enrolment.secret, fx.clock.now());
    const wrong = await failureOf(session.auth.totp.confirm(otherThan(current)));
    expect(wrong.status).toBe(401);
    expect(wrong.code).toBe('invalid_second_factor');
    const enabled = await session.auth.totp.confirm(totpCode(enrolment.secret, fx.clock.now()));
    expect(enabled.enabled).toBe(true);
    expect(enabled.recovery_codes).toHaveLength(10);
    expect(await session.auth.recoveryCodes.remaining()).toBe(10);
    const replaced = await session.auth.recoveryCodes.replace();
    expect(replaced).toHaveLength(10);
    expect(replaced).not.toEqual(enabled.recovery_codes);

    const required = await failureOf(
      createClient({ baseUrl: fx.app.url }).auth.login({ email, password: PASSWORD }),
    );
    expect(required.code).toBe('second_factor_required');

    fx.clock.advance(STEP);
    expect(await session.auth.totp.disable(totpCode(enrolment.secret, fx.clock.now()))).toEqual({
      enabled: false,
    });
    const again = await failureOf(session.auth.totp.disable(totpCode(enrolment.secret, fx.clock.now())));
    expect(again.code).toBe('totp_not_enabled');
    await createClient({ baseUrl: fx.app.url }).auth.login({ email, password: PASSWORD });
  });

  it('recovers with the emailed link and a recovery code into a restricted session (spec 5.5.3)', async () => {
    const { session, email } = await signedIn(fx.app);
    const { secret } = await session.auth.totp.start();
    const { recovery_codes: codes = [] } = await session.auth.totp.confirm(totpCode(secret, fx.clock.now()));
    fx.clock.advance(STEP);

    const stranger = createClient({ baseUrl: fx.app.url });
    expect(await stranger.auth.recovery.request(email)).toEqual({ status: 'recovery_sent' });
    const token = await emailedToken(fx.app, email, /recovery=(rec_[^\s"<]+)/);
    const wrong = await failureOf(stranger.auth.recovery.confirm({ token, recovery_code: 'aaaaa-bbbbb' }));
    expect(wrong.status).toBe(401);
    expect(wrong.code).toBe('invalid_recovery_code');
    // A wrong code is a failure on the account's sign-in ladder: the next try comes 100 ms later (issue 27).
    fx.clock.advance(100);

    const account = await stranger.auth.recovery.confirm({ token, recovery_code: codes[0] ?? '' });
    expect(account.email).toBe(email);
    expect(stranger.sessionCookie()).toMatch(/^\S+$/);
    expect((await stranger.auth.me()).id).toBe(account.id);
    const restricted = await failureOf(stranger.profiles.list().toArray());
    expect(restricted.status).toBe(403);
    expect(restricted.code).toBe('mfa_enrolment_required');

    const fresh = await stranger.auth.totp.start();
    fx.clock.advance(STEP);
    await stranger.auth.totp.confirm(totpCode(fresh.secret, fx.clock.now()));
    expect(await stranger.profiles.list().toArray()).toEqual([]);
  });
}
