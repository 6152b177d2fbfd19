#!/usr/bin/env node
// The registry these machines reach serves only the platform packages of some versions, so `npm install`
// leaves the other platforms' optional binaries (darwin, win32, musl, ...) out of package-lock.json, and
// `npm ci` then refuses the lockfile as out of sync. This adds the missing optional entries with the os,
// cpu and libc constraints their names carry, exactly as npm writes them when the registry has them, so
// `npm ci` skips them on every other platform. Run it after changing dependencies: `npm run lockfile`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
  'android',
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'openharmony',
  'sunos',
  'aix',
  'netbsd',
];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OS.includes(token));
  const cpu = tokens.find((token) => CPU.includes(token));
  if (os === undefined || cpu === undefined) return undefined;
  const libc =
    os === 'linux'
      ? tokens.some((token) => token.startsWith('musl'))
        ? 'musl'
        : tokens.some((token) => token.startsWith('gnu'))
          ? 'glibc'
          : undefined
      : undefined;
  return { os: [os], cpu: [cpu], ...(libc === undefined ? {} : { libc: [libc] }) };
}

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${dependency}`;
    const hoisted = `node_modules/${dependency}`;
    if (packages[nested] !== undefined || packages[hoisted] !== undefined) continue;
    const platform = platformOf(dependency);
    if (platform === undefined) {
      console.error(`cannot tell the platform of ${dependency}; add it by hand`);
      process.exitCode = 1;
      continue;
    }
    packages[hoisted] = {
      version,
      ...(entry.dev === true ? { dev: true } : {}),
      ...(entry.devOptional === true ? { devOptional: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
