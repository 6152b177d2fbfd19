// No cycles between the domain's contexts (packages/domain/src/<context>/): `npm run lint` runs this with the
// modules collapsed to their context folder. The known-violations list (.dependency-cruiser-known-violations.json)
// is empty since the use cases declare per-use-case transaction scopes (docs/adr/0023): any cycle fails.
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
