// No cycles in the domain (packages/domain/src/), checked by `npm run lint` on two graphs:
// - between its contexts (packages/domain/src/<context>/): a rule of `folder` scope runs on the graph of the
//   folders, where a context depends on another when any of its files imports one of the other's. The module
//   graph alone misses these (identity → nodes → identity passed while no single file imported back its
//   importer), and `--collapse` would not help: it only groups the report after the rules ran;
// - between files: a cycle inside one context is a cycle of files.
// The known-violations list (.dependency-cruiser-known-violations.json) stays empty: any cycle fails.
const base = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
    {
      name: 'no-cycles-between-domain-contexts',
      severity: 'error',
      scope: 'folder',
      from: { path: '^packages/domain/src/[^/]+/?$' },
      to: { path: '^packages/domain/src/[^/]+/?$', circular: true },
    },
    {
      name: 'no-cycles-between-domain-files',
      severity: 'error',
      from: { path: '^packages/domain/src/' },
      to: { circular: true },
    },
  ],
  options: base.options,
};
