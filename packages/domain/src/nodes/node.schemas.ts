import { z } from 'zod';
import { NodeListArtifact } from '../lists/profile-list-selection.js';
import { EdgeProfileCore } from '../profiles/edge-document.schemas.js';

/** Seconds the previous node token keeps working after the first request made with its successor (spec 3, 8). */
export const NODE_TOKEN_GRACE_SECONDS = 600;

/**
 * A query shape a node says it answers (spec 2.11 names them). Any lowercase name is accepted, so that a node
 * newer than this server can report shapes the server does not know yet; unknown ones are simply never asked.
 */
export const NodeShape = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a shape name such as tail or top_domains')
  .meta({ description: 'A query shape of spec 2.11.', example: 'tail' });

/** The node software's version as it reports it. */
export const NodeSoftwareVersion = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .meta({ description: 'The node software’s version (semver recommended).', example: '1.4.0' });

/** A self-hosted node of a profile (spec 1.3, 3, 4.13; ROUTES.md). */
export const Node = z
  .object({
    id: z.uuid(),
    profile_id: z.string(),
    name: z.string(),
    state: z.enum(['pending', 'enrolled', 'revoked']).meta({
      description:
        '`pending` until a node exchanges the enrolment code (POST /v1/nodes/enrol), `enrolled` after, `revoked` for good.',
    }),
    version: z.string().nullable().meta({ description: 'The node software’s version, as last reported.' }),
    shapes: z.array(z.string()).meta({ description: 'Query shapes the node answers, as last reported.' }),
    connected: z.boolean().meta({ description: 'True while the node’s link is open on this API server.' }),
    last_seen_at: z.iso.datetime().nullable(),
    enrolment_expires_at: z.iso.datetime().meta({
      description: 'When the one-time enrolment code stops working if unused (24 hours after creation).',
    }),
    enrolled_at: z.iso.datetime().nullable(),
    token_rotated_at: z.iso.datetime().nullable().meta({ description: 'The node token’s last rotation.' }),
    revoked_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    operator_files: z
      .object({ operator_blocks: z.int().nullable(), operator_sources: z.int().nullable() })
      .meta({
        description:
          'The version of each operator file (spec 3, 4.10) the node acknowledged over its link; null before one.',
      }),
  })
  .meta({ id: 'Node' });
export type Node = z.infer<typeof Node>;

/** POST /v1/profiles/{id}/nodes. */
export const NodeCreate = z
  .object({
    name: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty')
      .max(64, 'must be at most 64 characters')
      .meta({ description: 'A name for the node, shown to the owner.', example: 'home-rack' }),
  })
  .strict()
  .meta({ id: 'NodeCreate' });
export type NodeCreate = z.infer<typeof NodeCreate>;

/** 201 of POST /v1/profiles/{id}/nodes: the node and its enrolment code, shown this once. */
export const NodeCreated = z
  .object({
    node: Node,
    enrolment_code: z.string().meta({
      description:
        'One-time code (`svcenrol_…`) a node exchanges at POST /v1/nodes/enrol within 24 hours. Shown once; only a keyed hash is stored.',
    }),
  })
  .meta({ id: 'NodeCreated' });
export type NodeCreated = z.infer<typeof NodeCreated>;

/** GET /v1/profiles/{id}/nodes (ROUTES.md list envelope). */
export const NodeList = z
  .object({ nodes: z.array(Node), next_cursor: z.string().nullable() })
  .meta({ id: 'NodeList' });
export type NodeList = z.infer<typeof NodeList>;

/** POST /v1/nodes/enrol. */
export const NodeEnrol = z
  .object({
    enrolment_code: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(256, 'must be at most 256 characters')
      .meta({ description: 'The code from POST /v1/profiles/{id}/nodes.' }),
    version: NodeSoftwareVersion.optional(),
    shapes: z.array(NodeShape).max(64, 'at most 64 shapes').optional(),
  })
  .strict()
  .meta({ id: 'NodeEnrol' });
export type NodeEnrol = z.infer<typeof NodeEnrol>;

/** One profile signing key announced to nodes. */
export const ProfilePublicKey = z
  .object({
    key_id: z.string().meta({ description: 'Names the key in `profile_key_id` of signed documents.' }),
    algorithm: z.literal('Ed25519'),
    public_key: z.string().meta({ description: 'The raw 32-byte Ed25519 public key, base64.' }),
  })
  .meta({ id: 'ProfilePublicKey' });
export type ProfilePublicKey = z.infer<typeof ProfilePublicKey>;

/** 201 of POST /v1/nodes/enrol. */
export const NodeEnrolled = z
  .object({
    node: Node,
    node_token: z.string().meta({
      description:
        'The node token (`svcnode_` and 52 alphanumerics), shown once: accepted only by node endpoints.',
    }),
    profile_pubkey: z.array(ProfilePublicKey).meta({
      description:
        'The profile signing keys, the signing key first, the others still valid during a key rotation; empty when this server does not sign profiles.',
    }),
  })
  .meta({ id: 'NodeEnrolled' });
export type NodeEnrolled = z.infer<typeof NodeEnrolled>;

/** 200 of POST /v1/nodes/self/token. */
export const NodeTokenRotated = z
  .object({
    node_token: z.string().meta({ description: 'The new node token, shown once.' }),
    previous_valid_s: z.literal(NODE_TOKEN_GRACE_SECONDS).meta({
      description:
        'Seconds the previous token keeps working after the first request made with the new one (600).',
    }),
    token_rotated_at: z.iso.datetime(),
  })
  .meta({ id: 'NodeTokenRotated' });
export type NodeTokenRotated = z.infer<typeof NodeTokenRotated>;

/** The compiled lists of a node profile document: the manifest of what the node must enforce. */
export const NodeProfileLists = z.object({
  ids: z
    .array(z.int())
    .meta({ description: 'Catalogue list ids the profile enables by id (GET /v1/lists).' }),
  url: z.url().meta({
    description: 'Where this manifest is read on its own (GET /v1/nodes/self/lists, with the node token).',
  }),
  sha256: z.string().meta({
    description:
      'Hex SHA-256 of the compact canonical JSON of `artifacts`: unchanged means nothing to download.',
  }),
  artifacts: z.array(NodeListArtifact).meta({
    description:
      'Every compiled list the profile applies (enabled lists, parental services and categories, security feeds), by kind then list id.',
  }),
});
export type NodeProfileLists = z.infer<typeof NodeProfileLists>;

/**
 * GET /v1/nodes/self/profile: the profile a self-hosted node applies (spec 4.13, 9): the edge document's
 * fields, with its compiled lists as a manifest, the `sequence` it was issued under and its signature.
 */
export const NodeProfileDocument = EdgeProfileCore.extend({
  lists: NodeProfileLists,
  lists_url: z.url().meta({ description: 'Deprecated: use lists.url.', deprecated: true }),
  lists_sha256: z.string().meta({ description: 'Deprecated: use lists.sha256.', deprecated: true }),
  updated_at: z.iso.datetime(),
  sequence: z.int().min(0).optional().meta({
    description:
      'Orders the documents of a profile: the time the document was issued, in Unix milliseconds (never before updated_at). A list refresh changes the document without changing `version`, so a node refuses a document whose sequence is below the one it applied (a replay of an earlier document), and one without a sequence once it applied one. Signed with the document.',
  }),
  profile_signature: z.string().optional().meta({
    description:
      'Present when the server signs profiles: base64 Ed25519 signature over the UTF-8 bytes of `svc-profile-v1\\n` + id + `\\n` + version (decimal) + `\\n` + the compact canonical JSON (keys sorted at every depth, no whitespace) of this document without profile_signature, profile_key_id and profile_pubkey.',
  }),
  profile_key_id: z.string().optional().meta({ description: 'The signing key’s key_id.' }),
  profile_pubkey: z
    .string()
    .optional()
    .meta({ description: 'The signing key’s raw 32-byte Ed25519 public key, base64.' }),
}).meta({ id: 'NodeProfileDocument' });
export type NodeProfileDocument = z.infer<typeof NodeProfileDocument>;
