import type { SvcClient } from '@svc/sdk';

/** rules-and-lists.md: read the rules with their ETag, add a deny rule, choose blocklists. */
export async function editRulesAndLists(svc: SvcClient, id: string): Promise<void> {
  const { data: rules, etag } = await svc.profiles.rules.get(id).withResponse();
  const saved = await svc.profiles.rules
    .replace(id, { ...rules, deny: [...rules.deny, 'ads.example.com'] }, { ifMatch: etag })
    .withResponse();

  const catalogue = await svc.catalogue.lists();
  const ids = catalogue.lists.slice(0, 2).map((list) => list.id);
  await svc.profiles.lists.replace(id, ids, { ifMatch: saved.etag });
  console.log(await svc.profiles.lists.get(id)); // the chosen list ids
}

/** rules-and-lists.md: report a list that blocks a domain it should not. */
export async function reportList(svc: SvcClient, id: string, listId: number): Promise<void> {
  const { id: reportId } = await svc.profiles.listReports.create(id, {
    domain: 'shop.example.com',
    list_id: listId,
    kind: 'false_positive',
  });
  for await (const report of svc.profiles.listReports.list(id))
    console.log(report.id === reportId, report.status);
}
