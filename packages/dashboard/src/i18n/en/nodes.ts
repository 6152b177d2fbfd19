/** The nodes page. */
export const nodes = {
  'nodes.title': 'Nodes',
  'nodes.created': (p: { name: string }) => `Node ${p.name} created: enrol it with the command below.`,
  'nodes.revoked': (p: { name: string }) => `Node ${p.name} revoked.`,
} as const;
