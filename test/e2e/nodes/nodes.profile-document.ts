import { createHash, createPublicKey, verify } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import {
  compactCanonicalJson,
  type ListPipelineService,
  type NodeProfileLists,
  profileSignaturePayload,
} from '@svc/domain';
import { ListPipelineServiceToken } from '@svc/http-server';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { openLink } from './link-client.js';
import { ED25519_SPKI_PREFIX, type NodesFixture } from './nodes.fixture.js';

/** The signed profile document and the compiled lists a node fetches (spec 4.13, 9; issue 29). */
export function nodeProfileDocument(fx: NodesFixture): void {
  const { createProfile, enrolled, asNode } = fx;
  describe('profile document (4.13, 9)', () => {
    it('sends lists.url and lists.sha256 with the deprecated fields, their headers, and a verifiable signature', async () => {
      const profileId = await createProfile();
      const { node_token, profile_pubkey } = await enrolled(profileId);
      const answer = await send(`${fx.api.url}/v1/nodes/self/profile`, { headers: asNode(node_token) });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.deprecation).toBe(`@${Date.UTC(2026, 8, 30) / 1000}`);
      expect(answer.headers.sunset).toBe('Wed, 31 Mar 2027 00:00:00 GMT');
      const document = answer.json as Record<string, unknown> & {
        lists: { url: string; sha256: string; ids: number[] };
      };
      expect(document).toMatchObject({ kind: 'profile', id: profileId, version: 1, suspended: false });
      expect(document.lists.url).toBe(`${fx.api.url}/v1/nodes/self/lists`);
      expect(document.lists.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(document.lists_url).toBe(document.lists.url);
      expect(document.lists_sha256).toBe(document.lists.sha256);
      // The ECS part the edge gets, with the operator's cap (no cap set here): mode off sends /0.
      expect(document.ecs).toEqual({
        mode: 'off',
        operator_cap: { v4: 32, v6: 128 },
        source_prefix: { v4: 0, v6: 0 },
      });
      const signingKey = profile_pubkey[0];
      expect(document.profile_key_id).toBe(signingKey?.key_id);
      expect(document.profile_pubkey).toBe(signingKey?.public_key);
      const publicKey = createPublicKey({
        key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(String(document.profile_pubkey), 'base64')]),
        format: 'der',
        type: 'spki',
      });
      const signature = Buffer.from(String(document.profile_signature), 'base64');
      const payload = profileSignaturePayload(document);
      expect(payload.startsWith(`svc-profile-v1\n${profileId}\n1\n{`)).toBe(true);
      expect(verify(null, Buffer.from(payload, 'utf8'), publicKey, signature)).toBe(true);
      const tampered = profileSignaturePayload({ ...document, version: 2 });
      expect(verify(null, Buffer.from(tampered, 'utf8'), publicKey, signature)).toBe(false);
    });
  });

  describe('compiled lists (issue 29: the node gets everything it must enforce)', () => {
    const importList = async (listId: number, text: string) => {
      const pipeline = await fx.api.container.getAsync<ListPipelineService>(ListPipelineServiceToken);
      return pipeline.importList(
        listId,
        (async function* () {
          yield Buffer.from(text);
        })(),
      );
    };
    const raw = async (url: string, headers: Record<string, string>) => {
      const answer = await request(url, { headers });
      return {
        status: answer.statusCode,
        headers: answer.headers,
        body: Buffer.from(await answer.body.arrayBuffer()),
      };
    };

    it('names each applied list in the signed manifest, and serves its artifact to the profile’s nodes only', async () => {
      const imported = await importList(
        5,
        'ads.manifest-fixture.example\ntracker.manifest-fixture.example\n',
      );
      const profileId = await createProfile();
      const put = await send(`${fx.api.url}/v1/profiles/${profileId}/lists`, {
        method: 'PUT',
        headers: fx.owner.auth,
        body: { lists: [5] },
      });
      expect(put.status, put.text).toBe(200);
      const patched = await send(`${fx.api.url}/v1/profiles/${profileId}`, {
        method: 'PATCH',
        headers: fx.owner.auth,
        body: { parental: { services: ['tiktok'] }, security: { threat_intel: true } },
      });
      expect(patched.status, patched.text).toBe(200);
      const { node_token } = await enrolled(profileId);
      const document = (await send(`${fx.api.url}/v1/nodes/self/profile`, { headers: asNode(node_token) }))
        .json as { lists: NodeProfileLists; lists_sha256: string };
      const { artifacts } = document.lists;
      expect(document.lists.ids).toEqual([5]);
      // List 5 enabled by id; TikTok compiled from the catalogue; the threat feeds have no compilation yet.
      expect(artifacts.map((artifact) => [artifact.kind, artifact.list_id])).toEqual([
        ['list', 5],
        ['parental', 20002],
      ]);
      expect(artifacts[0]).toEqual({
        list_id: 5,
        kind: 'list',
        name: 'HaGeZi Multi NORMAL',
        ref: 'list:5',
        version: imported.version,
        sha256: imported.sha256,
        size: expect.any(Number),
        url: `${fx.api.url}/v1/nodes/self/lists/${imported.sha256}`,
      });
      const digest = createHash('sha256').update(compactCanonicalJson(artifacts)).digest('hex');
      expect(document.lists.sha256).toBe(digest);
      expect(document.lists_sha256).toBe(digest);
      const manifest = await send(`${fx.api.url}/v1/nodes/self/lists`, { headers: asNode(node_token) });
      expect(manifest.json).toEqual(document.lists);

      const url = artifacts[0]?.url ?? '';
      const zipped = await raw(url, { ...asNode(node_token), 'accept-encoding': 'gzip' });
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.etag).toBe(`"${imported.sha256}"`);
      expect(zipped.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      const text = gunzipSync(zipped.body);
      expect(createHash('sha256').update(text).digest('hex')).toBe(imported.sha256);
      expect(text.toString()).toContain('\n=ads.manifest-fixture.example\n');
      const plain = await raw(url, asNode(node_token));
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(text)).toBe(true);
      expect(Number(plain.headers['content-length'])).toBe(artifacts[0]?.size);
      const again = await raw(url, { ...asNode(node_token), 'if-none-match': `"${imported.sha256}"` });
      expect(again.status).toBe(304);

      // Another profile's node, a digest outside the manifest, an account token: never the artifact.
      const other = await enrolled(await createProfile());
      expectProblem(await send(url, { headers: asNode(other.node_token) }), 404, 'not_found');
      expectProblem(
        await send(`${fx.api.url}/v1/nodes/self/lists/${'0'.repeat(64)}`, { headers: asNode(node_token) }),
        404,
        'not_found',
      );
      expect((await send(url, { headers: fx.owner.auth })).status).toBe(401);
      expect((await send(url)).status).toBe(401);
    });

    it('tells linked nodes when lists change, and welcomes with the manifest digest', async () => {
      const profileId = await createProfile();
      await send(`${fx.api.url}/v1/profiles/${profileId}/lists`, {
        method: 'PUT',
        headers: fx.owner.auth,
        body: { lists: [6] },
      });
      const { node_token } = await enrolled(profileId);
      const link = await openLink(fx.api.url, node_token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      const welcome = (await link.next('welcome')) as { lists_sha256?: string };
      const before = (await send(`${fx.api.url}/v1/nodes/self/lists`, { headers: asNode(node_token) }))
        .json as {
        sha256: string;
      };
      expect(welcome.lists_sha256).toBe(before.sha256);
      await importList(6, 'changed.manifest-fixture.example\n');
      await link.next('lists_changed');
      const after = (await send(`${fx.api.url}/v1/nodes/self/lists`, { headers: asNode(node_token) }))
        .json as {
        sha256: string;
        artifacts: { list_id: number }[];
      };
      expect(after.sha256).not.toBe(before.sha256);
      expect(after.artifacts.map((artifact) => artifact.list_id)).toEqual([6]);
      link.close();
    });
  });
}
