import type { Clock, KeyedHash } from '@svc/domain';
import { z } from 'zod';

/** Purpose of the key derived from SVC_SECRET that signs relayed queries and their replies: theirs alone. */
const RELAY_MAC_PURPOSE = 'nodes-relay';
/** Oldest (and furthest ahead, for clock skew between servers) a signed message may be when it arrives. */
export const RELAY_MESSAGE_MAX_AGE_MS = 30_000;

/**
 * A relay message on the bus: `body` is the JSON of the message, sent as the exact text that was signed so the
 * receiver verifies those bytes and no re-serialisation can differ; `mac` is HMAC-SHA-256 of the subject and
 * the body under the relay's key.
 */
const SignedMessage = z.strictObject({
  body: z.string().max(4 * 1024 * 1024),
  mac: z.string().max(64),
});
export type SignedMessage = z.infer<typeof SignedMessage>;

/** Why a message was refused, for the warning logged when it is dropped. */
type RefusalReason = 'not_signed' | 'bad_signature' | 'not_json' | 'stale' | 'bad_message';

/** A message opened: its body, not yet checked against its schema. */
export type OpenedMessage = { ok: true; body: unknown } | { ok: false; reason: RefusalReason };

/**
 * Signs and opens relay messages with a key derived from SVC_SECRET, so only servers of this deployment can
 * ask for a profile's logs or answer for one, whoever else reaches the bus. The subject is signed with the
 * body: a request cannot be passed off as a reply, nor a reply sent to one server as another's. Each body
 * carries `sent_at` (Unix ms); a message older than 30 s is refused, which bounds replays.
 */
export class RelayEnvelope {
  constructor(
    private readonly hash: KeyedHash,
    private readonly clock: Clock,
  ) {}

  seal(subject: string, message: object): SignedMessage {
    const body = JSON.stringify({ ...message, sent_at: this.clock.now().getTime() });
    return { body, mac: this.hash.mac(RELAY_MAC_PURPOSE, signedText(subject, body)) };
  }

  open(subject: string, payload: unknown): OpenedMessage {
    const signed = SignedMessage.safeParse(payload);
    if (!signed.success) return { ok: false, reason: 'not_signed' };
    const { body, mac } = signed.data;
    // KeyedHash.verify compares in constant time.
    if (!this.hash.verify(RELAY_MAC_PURPOSE, signedText(subject, body), mac))
      return { ok: false, reason: 'bad_signature' };
    const parsed = parseJson(body);
    if (parsed === undefined) return { ok: false, reason: 'not_json' };
    const sentAt = (parsed as { sent_at?: unknown } | null)?.sent_at;
    if (typeof sentAt !== 'number' || !Number.isFinite(sentAt)) return { ok: false, reason: 'bad_message' };
    if (Math.abs(this.clock.now().getTime() - sentAt) > RELAY_MESSAGE_MAX_AGE_MS)
      return { ok: false, reason: 'stale' };
    return { ok: true, body: parsed };
  }
}

function signedText(subject: string, body: string): string {
  return `${subject}\n${body}`;
}

/** The value of a JSON text; undefined when it is not JSON (a verified body always is). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
