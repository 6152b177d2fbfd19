#!/usr/bin/env node
// The `svc-node` command npm links into node_modules/.bin: a file of the repository rather than the compiled
// entry, because npm links bins before the install-time build writes dist/ (as packages/cli/bin/svc.js does).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/svc-node.main.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write(
    'svc-node: the node is not built (packages/node/dist is missing). Run `npm run build -w @svc/node`.\n',
  );
  process.exit(2);
}
await import(compiled.href);
