import type { SvcClient } from '@svc/sdk';

/** devices.md: list the devices a profile has seen, name one, forget one. */
export async function manageDevices(svc: SvcClient, id: string): Promise<void> {
  for await (const device of svc.profiles.devices.list(id)) console.log(device.id, device.name);
  const [first] = await svc.profiles.devices.list(id).toArray(1);
  if (first === undefined) return;
  const named = await svc.profiles.devices.update(id, first.id, { display_name: "Sam's phone" });
  console.log(named.display_name);
  await svc.profiles.devices.forget(id, first.id);
}
