import { createPublicKey, verify } from 'node:crypto';
import { operatorFileSignaturePayload, operatorNameKey } from '@svc/domain';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { createOperator } from '../admin/operator-fixture.js';
import { openLink } from './link-client.js';
import { ED25519_SPKI_PREFIX, type NodesFixture } from './nodes.fixture.js';

/** Operator files reach every node in their scope (spec 3, 4.10). */
export function nodeOperatorFiles(fx: NodesFixture): void {
  const { createProfile, enrolled } = fx;
  describe('operator files at the node (spec 3, 4.10: every edge in scope answers the pattern NXDOMAIN)', () => {
    const verifies = (message: Record<string, unknown>, keys: { key_id: string; public_key: string }[]) => {
      const key = keys.find((candidate) => candidate.key_id === message.key_id);
      if (key === undefined) return false;
      const publicKey = createPublicKey({
        key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(key.public_key, 'base64')]),
        format: 'der',
        type: 'spki',
      });
      const payload = operatorFileSignaturePayload(
        message.file as 'operator_blocks',
        Number(message.version),
        message.document,
      );
      return verify(null, Buffer.from(payload), publicKey, Buffer.from(String(message.signature), 'base64'));
    };

    it('sends the node the files in its scope, signed, on (re)connection and on every change, and records its acknowledgements', async () => {
      const operator = await createOperator(fx.api);
      const profileId = await createProfile();
      const { node, node_token, profile_pubkey } = await enrolled(profileId);
      const link = await openLink(fx.api.url, node_token);
      link.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      await link.next('welcome');
      const first = await link.next('operator_file');
      const second = await link.next('operator_file');
      expect([first.file, second.file].sort()).toEqual(['operator_blocks', 'operator_sources']);
      expect(verifies(first, profile_pubkey)).toBe(true);

      const block = (body: object) =>
        send(`${fx.api.url}/v1/admin/operator-blocks`, { method: 'POST', headers: operator.admin, body });
      for (const body of [
        { pattern: `court-${profileId}.example`, reason_code: 'legal_order', public_ref: 'Order 1' },
        { pattern: `fra-${profileId}.example`, reason_code: 'legal_order', pops: ['fra1'] },
        { pattern: `de-${profileId}.example`, reason_code: 'legal_order', jurisdictions: ['DE'] },
        { pattern: `*.nodes-${profileId}.example`, reason_code: 'abuse', pops: ['node'] },
        { pattern: `=csam-${profileId}.example`, reason_code: 'csam' },
      ]) {
        expect((await block(body)).status).toBe(201);
      }
      let latest: Record<string, unknown> = {};
      for (let index = 0; index < 5; index += 1) latest = await link.next('operator_file');
      expect(latest).toMatchObject({ file: 'operator_blocks' });
      expect(verifies(latest, profile_pubkey)).toBe(true);
      const blocks = (latest.document as { blocks: Record<string, unknown>[] }).blocks.filter(
        (entry) => String(entry.pattern ?? entry.key).includes(profileId) || entry.reason_code === 'csam',
      );
      // In scope at a node: fleet-wide entries and those for the PoP `node`; csam names only as keys.
      expect(blocks.map((entry) => entry.pattern ?? 'key').sort()).toEqual(
        [`court-${profileId}.example`, `*.nodes-${profileId}.example`, 'key'].sort(),
      );
      const csam = blocks.find((entry) => entry.reason_code === 'csam');
      expect(csam).toMatchObject({ form: 'exact', key: operatorNameKey(`csam-${profileId}.example`) });
      expect(JSON.stringify(latest)).not.toContain(`csam-${profileId}`);
      // A tampered file does not verify.
      expect(verifies({ ...latest, version: Number(latest.version) + 1 }, profile_pubkey)).toBe(false);

      link.send({ type: 'operator_file_ack', file: 'operator_blocks', version: latest.version });
      link.send({ type: 'operator_file_ack', file: 'operator_sources', version: 0 });
      const acknowledged = await eventually(
        async () =>
          (
            (
              await send(`${fx.api.url}/v1/profiles/${profileId}/nodes/${node.id}`, {
                headers: fx.owner.auth,
              })
            ).json as {
              operator_files: { operator_blocks: number | null; operator_sources: number | null };
            }
          ).operator_files,
        (files) => files.operator_blocks !== null && files.operator_sources !== null,
      );
      expect(acknowledged).toEqual({ operator_blocks: latest.version, operator_sources: 0 });
      // An older acknowledgement changes nothing.
      link.send({ type: 'operator_file_ack', file: 'operator_blocks', version: 1 });
      link.close();

      const source = await send(`${fx.api.url}/v1/admin/source-blocks`, {
        method: 'POST',
        headers: operator.admin,
        body: { cidr: '203.0.113.0/24', reason: 'amplification', expires_at: '2099-01-01T00:00:00Z' },
      });
      expect(source.status, source.text).toBe(201);
      // Reconnected: the current version of each file, the source block in it.
      const again = await openLink(fx.api.url, node_token);
      again.send({ type: 'hello', protocol: 1, version: '1.0.0', shapes: [] });
      await again.next('welcome');
      const files = [await again.next('operator_file'), await again.next('operator_file')];
      const sources = files.find((file) => file.file === 'operator_sources');
      expect(
        ((sources?.document ?? { sources: [] }) as { sources: { cidr: string }[] }).sources.map(
          (entry) => entry.cidr,
        ),
      ).toContain('203.0.113.0/24');
      expect(files.find((file) => file.file === 'operator_blocks')?.version).toBe(latest.version);
      const nodeAfter = await send(`${fx.api.url}/v1/profiles/${profileId}/nodes/${node.id}`, {
        headers: fx.owner.auth,
      });
      expect(
        (nodeAfter.json as { operator_files: { operator_blocks: number } }).operator_files.operator_blocks,
      ).toBe(latest.version);
      again.close();
    });
  });
}
