// `npm run set-version -- X.Y.Z`: sets the API version where it is declared
// (packages/domain/src/meta/api-version.ts) and makes the packages follow it: the root's and each published
// package's version, and every workspace's @svc/* dependency ranges. Then run `npm install` (the lockfile
// follows) and give CHANGELOG.md a section for the version; test/docs/versions.test.ts checks all of it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const version = process.argv[2];
if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) {
  process.stderr.write('usage: npm run set-version -- X.Y.Z\n');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;

const apiVersionFile = join(root, 'packages/domain/src/meta/api-version.ts');
const declared = readFileSync(apiVersionFile, 'utf8');
writeFileSync(apiVersionFile, declared.replace(/API_VERSION = '[^']*'/, `API_VERSION = '${version}'`));

const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The workspace directories, `dir/*` patterns expanded. */
const workspaces = rootManifest.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(root, pattern.slice(0, -2)))
        .map((name) => `${pattern.slice(0, -2)}/${name}`)
        .filter((dir) => existsSync(join(root, dir, 'package.json')))
    : [pattern],
);
const manifestOf = (dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
/** Packages other workspaces require (a private one too, such as @svc/testing): their ranges must match them. */
const required = new Set(
  workspaces.flatMap((dir) => {
    const manifest = manifestOf(dir);
    return ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) =>
      Object.keys(manifest[field] ?? {}),
    );
  }),
);
for (const dir of ['.', ...workspaces]) {
  const file = join(root, dir, 'package.json');
  const manifest = manifestOf(dir);
  if (manifest.private !== true || dir === '.' || required.has(manifest.name)) manifest.version = version;
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      if (name.startsWith('@svc/')) manifest[field][name] = `^${version}`;
    }
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
process.stdout.write(
  `API version ${version} set; now run npm install and add "## ${version}" to CHANGELOG.md\n`,
);
