#!/usr/bin/env node
// The `svc` command npm links into node_modules/.bin. It is a file of the repository rather than the compiled
// entry itself: npm links a package's bins before the install-time build (scripts/prepare.mjs) writes
// dist/, and leaves out a bin whose file does not exist yet.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write(
    'svc: the CLI is not built (packages/cli/dist/bin.js is missing). Run `npm run prepare` at the root of the repository (npm ci and npm install run it).\n',
  );
  process.exit(2);
}
await import(compiled.href);
