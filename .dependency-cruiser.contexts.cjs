// No cycles between the domain's contexts (packages/domain/src/<context>/): `npm run lint` runs this with the
// modules collapsed to their context folder. Known cycles (.dependency-cruiser-known-violations.json) all run
// through the outbox's TransactionScope, which every context's writes share; narrowing it to per-use-case
// scopes removes them, and the baseline with them. A new cycle fails.
const base = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
    {
      name: 'no-cycles-between-domain-contexts',
      severity: 'error',
      from: { path: '^packages/domain/src/' },
      to: { circular: true },
    },
  ],
  options: base.options,
};
