import { createClient, type SvcClient } from '@svc/sdk';

/** nodes.md: the owner creates a node; the node enrols, reads its profile and rotates its token. */
export async function enrolNode(owner: SvcClient, baseUrl: string, id: string): Promise<void> {
  const created = await owner.profiles.nodes.create(id, { name: 'basement' });
  // On the node: enrol without a credential, then use the node token it answers.
  const enrolled = await createClient({ baseUrl }).nodes.enrol({ enrolment_code: created.enrolment_code });
  const node = createClient({ baseUrl, token: enrolled.node_token });
  const document = await node.nodes.self.profile(); // signed; verify with @svc/node-agent-kit
  console.log(document.version);
  const rotated = await node.nodes.self.rotateToken(); // the old token stops working
  console.log(rotated.node_token.length > 0);
  await owner.profiles.nodes.revoke(id, created.node.id);
}
