import { nodeBackMail, nodeOfflineMail } from '../mail/node.mails.js';
import { DEFAULT_PREFERENCES } from '../preferences/preferences.schemas.js';
import type { Random } from '../shared/random.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import { emitWebhookEvent } from '../webhooks/webhook-emit.js';
import type { DueNodeAlert, NodeAlertScope } from './node.ports.js';

/** Default time a node's link may stay down before its owners are told (spec 8). */
export const NODE_ALERT_DELAY_DEFAULT_SECONDS = 600;
/** At most one offline and back pair per node in this window (spec 3, 8). */
const NODE_ALERT_PAIR_WINDOW_MS = 6 * 60 * 60 * 1000;
/** Alerts claimed per transaction, so one run never holds many row locks for long. */
const ALERTS_PER_TRANSACTION = 50;

/** What one run sent: alerts are counted per node, mails per recipient. */
export interface NodeAlertRun {
  offline: number;
  back: number;
  mails: number;
}

/**
 * Offline and back alerts of self-hosted nodes (spec 3, 6.4, 8). A node is offline when its link was last
 * heard (hello or heartbeat, recorded by whichever API server holds it) more than the delay ago, so a server
 * that died without closing its links counts too. Each due alert is claimed under a row lock that other
 * servers skip, and its mail is queued in the same transaction as the alert state, so of servers running
 * together exactly one sends it. Owners whose preference alerts.node_offline is off are not mailed; the pair
 * counts all the same. Revoked nodes are never claimed, so they never alert.
 */
export async function runNodeAlerts(
  uow: ScopedUnitOfWork<NodeAlertScope>,
  now: Date,
  delaySeconds: number,
  random: Random,
): Promise<NodeAlertRun> {
  const run: NodeAlertRun = { offline: 0, back: 0, mails: 0 };
  const cutoffs = {
    offlineBefore: new Date(now.getTime() - delaySeconds * 1000),
    pairBefore: new Date(now.getTime() - NODE_ALERT_PAIR_WINDOW_MS),
  };
  for (;;) {
    // Counted once the transaction committed, so a rolled-back batch reports nothing.
    const batch = await uow.run(async (tx) => {
      const sent: NodeAlertRun = { offline: 0, back: 0, mails: 0 };
      const due = await tx.nodes.claimDueAlerts(cutoffs, ALERTS_PER_TRANSACTION);
      for (const alert of due) {
        sent.mails += await sendAlert(tx, alert, delaySeconds);
        // node.offline and node.online go to the organisation's endpoints whatever the owners' mail preference.
        await emitWebhookEvent(
          tx,
          { random, clock: { now: () => now } },
          alert.node.orgId,
          alert.kind === 'offline' ? 'node.offline' : 'node.online',
          {
            node_id: alert.node.id,
            profile_id: alert.node.profileId,
            last_seen_at: alert.linkSeenAt.toISOString(),
          },
        );
        await tx.nodes.recordAlert(alert.node.id, alert.kind, now);
        sent[alert.kind] += 1;
      }
      return { sent, claimed: due.length };
    });
    run.offline += batch.sent.offline;
    run.back += batch.sent.back;
    run.mails += batch.sent.mails;
    if (batch.claimed < ALERTS_PER_TRANSACTION) return run;
  }
}

/** Queues the alert's mail to each owner who wants node alerts; returns how many. */
async function sendAlert(tx: NodeAlertScope, alert: DueNodeAlert, delaySeconds: number): Promise<number> {
  const { node } = alert;
  const profile = await tx.profiles.find(node.orgId, node.profileId);
  const facts = {
    nodeId: node.id,
    nodeName: node.name,
    profileId: node.profileId,
    profileName: profile?.name ?? node.profileId,
    linkSeenAt: alert.linkSeenAt,
  };
  let mails = 0;
  for (const owner of await tx.identity.accounts.listOwners(node.orgId)) {
    const stored = await tx.preferences.find(owner.id);
    if (!(stored.alerts?.node_offline ?? DEFAULT_PREFERENCES.alerts.node_offline)) continue;
    await tx.mail.enqueue(
      alert.kind === 'offline'
        ? nodeOfflineMail(owner.email, facts, delaySeconds)
        : nodeBackMail(owner.email, facts),
    );
    mails += 1;
  }
  return mails;
}
