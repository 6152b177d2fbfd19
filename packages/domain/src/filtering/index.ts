/**
 * What an edge needs to decide queries, importable on its own (`@svc/domain/filtering`) by nodes: the decision
 * function, the compact sets of compiled lists and the list artifact format.
 */
export * from './decide-query.js';
export * from './domain-set.js';
export * from './entry-forms.js';
export * from './filtering-context.js';
export * from './list-artifact.js';
export * from './name-key.js';
export * from './name-table.js';
export * from './node-operator-files.js';
export * from './pattern-index.js';
export * from './query-decision.js';
export * from './source-prefixes.js';
