import type { SvcClient } from '@svc/sdk';

/** linked-ips.md: link a fixed address, or a DDNS slot a router keeps current. */
export async function linkAddresses(svc: SvcClient, id: string): Promise<void> {
  const fixed = await svc.profiles.linkedIps.create(id, { ip: '203.0.113.7' }); // from 203.0.113.7: active
  const slot = await svc.profiles.linkedIps.create(id, { ddns: true });
  const { update_url } = await svc.profiles.linkedIps.ddnsUrl(id, slot.id); // give this URL to the router
  await svc.ddns.update(update_url); // what the router calls: sets the slot to the caller's address
  for await (const link of svc.profiles.linkedIps.list(id)) console.log(link.id, link.ip);
  await svc.profiles.linkedIps.rotateDdns(id, slot.id); // the old URL stops working
  await svc.profiles.linkedIps.delete(id, fixed.id);
}
