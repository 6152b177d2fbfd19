import { composeMail } from './identity.mails.js';
import type { MailMessage } from './mailer.ports.js';

/** What a node alert names: the node, its profile and when its link was last heard. */
export interface NodeAlertFacts {
  nodeId: string;
  nodeName: string;
  profileId: string;
  profileName: string;
  /** When the node's link was last heard (offline) or heard again (back). */
  linkSeenAt: Date;
}

const ABOUT =
  'You get this email as an owner of the organisation because node alerts are on in your account preferences (alerts.node_offline); you can turn them off there. At most one offline and back pair is sent per node every 6 hours.';

/** Names come from users: control characters (line breaks in a subject) become spaces. */
function plain(name: string): string {
  return name.replace(/\p{Cc}+/gu, ' ');
}

function nodeLine(facts: NodeAlertFacts): string {
  return `Node: ${plain(facts.nodeName)} (${facts.nodeId})\nProfile: ${plain(facts.profileName)} (${facts.profileId})`;
}

/**
 * Sent to the organisation's owners once a self-hosted node's link has been down for the alert delay: the
 * profile's logs held on the node cannot be queried until it is back.
 */
export function nodeOfflineMail(to: string, facts: NodeAlertFacts, delaySeconds: number): MailMessage {
  const [count, unit] = delaySeconds % 60 === 0 ? [delaySeconds / 60, 'minute'] : [delaySeconds, 'second'];
  const delay = `${count} ${unit}${count === 1 ? '' : 's'}`;
  return composeMail(to, `Your self-hosted node ${plain(facts.nodeName)} is offline`, [
    {
      paragraph: `Your self-hosted node ${plain(facts.nodeName)} has not been connected for more than ${delay}.`,
    },
    { paragraph: nodeLine(facts) },
    { paragraph: `Last heard: ${facts.linkSeenAt.toISOString()}` },
    {
      paragraph:
        'Until it reconnects, log and analytics queries of this profile answer node_offline. Check that the node is running and can reach the service.',
    },
    { paragraph: 'We will email you again when it is back.' },
    { paragraph: ABOUT },
  ]);
}

/** Sent to the organisation's owners when a node reported offline is connected again. */
export function nodeBackMail(to: string, facts: NodeAlertFacts): MailMessage {
  return composeMail(to, `Your self-hosted node ${plain(facts.nodeName)} is back online`, [
    { paragraph: `Your self-hosted node ${plain(facts.nodeName)} is connected again.` },
    { paragraph: nodeLine(facts) },
    { paragraph: `Last heard: ${facts.linkSeenAt.toISOString()}` },
    { paragraph: ABOUT },
  ]);
}
