#!/usr/bin/env node
// The install-time build: npm runs the root project's `prepare` script at the end of `npm ci` and of a plain
// `npm install`, so `npx svc …` runs a compiled CLI right after installing (no TypeScript compiled or checked on
// each call). Each step compiles JavaScript only: the type declarations come from `npm run build`, and the
// type check from `npm run typecheck`. Run again with `npm run prepare` after pulling changes; pass step
// names to run only those (`node scripts/prepare.mjs cli`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The build steps, in order. `svc` (packages/cli/bin/svc.js) loads packages/cli/dist, which imports the other
 * workspace packages through their package.json `exports`: without the `source` condition, that is their
 * dist too, so the CLI needs every package it imports built.
 */
const STEPS = [
  { name: 'domain', folder: 'packages/domain', tool: 'tsup', args: ['--no-dts'] },
  { name: 'sdk', folder: 'packages/sdk', tool: 'tsup', args: ['--no-dts'] },
  { name: 'adapters', folder: 'packages/adapters', tool: 'tsup', args: ['--no-dts'] },
  { name: 'edge-simulator', folder: 'packages/edge-simulator', tool: 'tsup', args: ['--no-dts'] },
  { name: 'composition', folder: 'packages/composition', tool: 'tsup', args: ['--no-dts'] },
  { name: 'http-server', folder: 'packages/http-server', tool: 'tsup', args: ['--no-dts'] },
  { name: 'cli', folder: 'packages/cli', tool: 'tsup', args: ['--no-dts'] },
  // `svc-node` (packages/node/bin/svc-node.js) loads packages/node/dist, which imports the kit's dist.
  { name: 'node-agent-kit', folder: 'packages/node-agent-kit', tool: 'tsup', args: ['--no-dts'] },
  { name: 'node', folder: 'packages/node', tool: 'tsup', args: ['--no-dts'] },
];

/** The JavaScript file of a tool's command, from the package that provides it; undefined when not installed. */
function toolPath(tool) {
  const require = createRequire(join(ROOT, 'package.json'));
  let manifestPath;
  try {
    manifestPath = require.resolve(`${tool}/package.json`);
  } catch {
    return undefined;
  }
  const { bin } = require(manifestPath);
  const relative = typeof bin === 'string' ? bin : bin?.[tool];
  return relative === undefined ? undefined : join(dirname(manifestPath), relative);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !STEPS.some((step) => step.name === name));
if (unknown.length > 0) {
  console.error(
    `prepare: unknown step ${unknown.join(', ')} (steps: ${STEPS.map((s) => s.name).join(', ')})`,
  );
  process.exit(2);
}
const steps = wanted.length === 0 ? STEPS : STEPS.filter((step) => wanted.includes(step.name));

for (const step of steps) {
  const tool = toolPath(step.tool);
  if (tool === undefined) {
    // An install without devDependencies (npm ci --omit=dev) has no build tools: say so and leave the build
    // to whoever installs them, rather than failing the install itself.
    console.warn(
      `prepare: ${step.tool} is not installed, so ${step.name} is not built; \`npx svc\` needs it`,
    );
    continue;
  }
  const folder = join(ROOT, step.folder);
  if (!existsSync(folder)) throw new Error(`prepare: ${step.folder} does not exist`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [tool, ...step.args], {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) {
    console.error(`prepare: building ${step.name} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
  console.log(`prepare: built ${step.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
