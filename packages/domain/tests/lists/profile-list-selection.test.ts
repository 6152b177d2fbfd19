import { describe, expect, it } from 'vitest';
import { nodeListManifest, profileListSelection } from '../../src/index.js';

const profile = {
  lists: [],
  security: {} as never,
  parental: { services: ['youtube'], categories: [], safe_search: false, youtube_restricted: false },
  suspended: false,
};

describe('profileListSelection with device policies (issue 38)', () => {
  it('names each list by what selected it, and adds the parental lists only a device chooses, marked', () => {
    const selection = profileListSelection(profile, {
      devices: {
        kid: { parental: { services: ['youtube', 'tiktok'], categories: ['dating'] } },
        tv: { parental: 'off' },
        phone: {},
      },
    });
    expect(selection).toEqual([
      { listId: 20001, kind: 'parental', name: expect.any(String), ref: 'service:youtube' },
      { listId: 20002, kind: 'parental', name: expect.any(String), ref: 'service:tiktok', deviceOnly: true },
      { listId: 10002, kind: 'parental', name: expect.any(String), ref: 'category:dating', deviceOnly: true },
    ]);
    // Without devices the selection is what it was (backwards compatible), references aside.
    expect(profileListSelection(profile).map((list) => list.listId)).toEqual([20001]);
    expect(
      profileListSelection(
        { ...profile, suspended: true },
        { devices: { kid: { parental: { services: ['tiktok'], categories: [] } } } },
      ),
    ).toEqual([]);
  });

  it('carries the reference and the device-only mark into the node manifest', () => {
    const selection = profileListSelection(profile, {
      devices: { kid: { parental: { services: ['tiktok'], categories: [] } } },
    });
    const version = { version: 1, sha256: 'ab', size: 3 } as never;
    const manifest = nodeListManifest(
      selection,
      new Map([
        [20001, version],
        [20002, version],
      ]),
      (sha) => `https://x.example/${sha}`,
    );
    expect(manifest.map(({ list_id, ref, device_only }) => ({ list_id, ref, device_only }))).toEqual([
      { list_id: 20001, ref: 'service:youtube', device_only: undefined },
      { list_id: 20002, ref: 'service:tiktok', device_only: true },
    ]);
  });
});
