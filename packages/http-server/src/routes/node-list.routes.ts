import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DomainError, NodeProfileLists, type NodeService } from '@svc/domain';
import { z } from 'zod';
import type { Principal } from '../http/principal.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

const ArtifactPath = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a list artifact’s hex SHA-256'),
});

/** Artifacts never change under their address: a node may keep them as long as it likes. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

/** True when an Accept-Encoding header admits gzip (without q=0). */
function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Whether an If-None-Match header names the ETag (or is `*`). */
function matches(header: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

function actingNode(principal: Principal | null) {
  if (principal?.node === undefined)
    throw new DomainError('unauthenticated', 'This route takes a node token.');
  return principal.node.node;
}

/**
 * The compiled lists of a node's profile (issue 29): the manifest (also in the profile document) and each
 * artifact it names, downloaded with the node token.
 */
export function nodeListRoutes(nodes: NodeService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/nodes/self/lists',
      operationId: 'getNodeLists',
      summary: 'The manifest of the node’s compiled lists',
      description:
        'The `lists` part of the profile document on its own: each compiled list the profile applies with its version, the SHA-256 and size of its artifact and where to download it; `sha256` is the digest of the manifest. Signed as part of GET /v1/nodes/self/profile only.',
      tags: ['nodes'],
      auth: 'node',
      responses: { 200: { description: 'The manifest.', schema: NodeProfileLists } },
      handler: async ({ principal }) => ({
        status: 200,
        body: await nodes.listManifest(actingNode(principal)),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/nodes/self/lists/{sha256}',
      operationId: 'downloadNodeListArtifact',
      summary: 'Download a compiled list',
      description:
        'A list artifact of the node’s current manifest (list-artifact format `svc-list 1`: one entry a line), gzip-compressed when the request accepts gzip. Immutable under its address: the ETag is the digest, If-None-Match with it answers 304. Any digest not in the node’s manifest (another profile’s list, an older version) is 404.',
      tags: ['nodes'],
      auth: 'node',
      request: { params: ArtifactPath },
      errorStatuses: [404],
      responses: {
        200: {
          description: 'The artifact.',
          schema: z.string().meta({ description: 'The list artifact: `svc-list 1`, then one entry a line.' }),
          contentType: 'text/plain',
          headers: {
            ETag: { description: 'The artifact’s hex SHA-256 in quotes.', schema: { type: 'string' } },
            'Content-Encoding': {
              description: '`gzip` when the request accepts it.',
              schema: { type: 'string' },
            },
          },
        },
        304: { description: 'Not Modified: the node holds this artifact.' },
      },
      handler: async ({ principal, params, headers }) => {
        const download = await nodes.listArtifact(actingNode(principal), params.sha256);
        const etag = `"${download.sha256}"`;
        const common = { ETag: etag, 'Cache-Control': IMMUTABLE, Vary: 'Accept-Encoding' };
        if (matches(headers['if-none-match'], etag)) return { status: 304, headers: common };
        const gzip = acceptsGzip(headers['accept-encoding']);
        return {
          status: 200,
          contentType: 'text/plain; charset=utf-8',
          headers: gzip ? { ...common, 'Content-Encoding': 'gzip' } : common,
          bytes: gzip
            ? { length: download.compressedSize, chunks: download.chunks }
            : { length: download.size, chunks: Readable.from(download.chunks).pipe(createGunzip()) },
        };
      },
    }),
  ];
}
