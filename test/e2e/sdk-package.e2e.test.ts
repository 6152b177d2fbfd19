import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import {
  filesUnder,
  freshSdkBuild,
  installPackedSdk,
  linkFromWorkspace,
  type PackageManifest,
  runConsumer,
  typeCheck,
} from '../support/sdk-package.js';

/** An import, re-export, require or dynamic import of `name` in built JavaScript or declarations. */
const importOf = (name: string) => new RegExp(`(?:from|import|require)\\s*\\(?\\s*['"]${name}`);
/** An integrator's strict settings; skipLibCheck off, so the SDK's declarations are checked as well. */
const STRICT = { strict: true, target: 'es2022', types: ['node'], skipLibCheck: false };

/**
 * Issue 11: the SDK has no dependency on the server packages. It is packed with `npm pack` and unpacked into a
 * project outside the workspace that holds only its declared dependencies (plus the integrator's own
 * @types/node), so nothing there can resolve @svc/domain; a consumer written against it is type-checked and run
 * against a real server through both entry points.
 */
describe('@svc/sdk installed from its packed tarball (issue 11: no dependency on the server packages)', () => {
  let project: string;
  let manifest: PackageManifest;
  let api: ApiHarness;
  let esmOwner: TestAccount;
  let cjsOwner: TestAccount;
  let node16Build: Promise<void> | undefined;
  const compileNode16 = () =>
    (node16Build ??= typeCheck(project, 'tsconfig.node16.json', ['consumer.mts', 'consumer.cts'], {
      ...STRICT,
      module: 'node16',
      moduleResolution: 'node16',
      outDir: 'out',
    }));

  beforeAll(async () => {
    await freshSdkBuild();
    project = realpathSync(mkdtempSync(join(tmpdir(), 'svc-sdk-package-')));
    manifest = await installPackedSdk(project);
    linkFromWorkspace(project, [...Object.keys(manifest.dependencies ?? {}), '@types/node']);
    for (const name of ['consumer.mts', 'consumer.cts'])
      copyFileSync(new URL(`./sdk-package/${name}`, import.meta.url), join(project, name));
    api = await startApi('memory');
    esmOwner = await createAccount(api);
    cjsOwner = await createAccount(api);
  }, 300_000);

  afterAll(async () => {
    await api?.close();
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it('declares no @svc package among what an install brings: undici to run, zod for the schema types', () => {
    const installed = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies];
    const names = installed.flatMap((field) => Object.keys(field ?? {}));
    expect(names.filter((name) => name.startsWith('@svc/'))).toEqual([]);
    expect(names.sort()).toEqual(['undici', 'zod']);
  });

  it('ships built files that import no @svc package, and JavaScript that never loads zod', () => {
    const packed = join(project, 'node_modules/@svc/sdk');
    const built = filesUnder(packed).filter((name) => /\.(?:c?js|d\.c?ts)$/.test(name));
    expect(built).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']),
    );
    expect(built).toContain('dist/browser/index.js');
    const textOf = (name: string) => readFileSync(join(packed, name), 'utf8');
    expect(built.filter((name) => importOf('@svc/').test(textOf(name)))).toEqual([]);
    const javascript = built.filter((name) => /\.c?js$/.test(name));
    expect(javascript.filter((name) => importOf(`zod['"/]`).test(textOf(name)))).toEqual([]);
  });

  it('type-checks a strict consumer against the packed declarations (node16: import and require; bundler)', async () => {
    await compileNode16();
    // The node16 build checked the declarations themselves (skipLibCheck off); this checks the consumer as a
    // bundler resolves it, with the checking of every library's declarations (@types/node, zod) left out.
    await typeCheck(project, 'tsconfig.bundler.json', ['consumer.mts'], {
      ...STRICT,
      skipLibCheck: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      noEmit: true,
    });
  }, 240_000);

  it('runs the ES module entry (dist/index.js) on Node against a real server, @svc/domain unresolvable', async () => {
    await compileNode16();
    const seen = await runConsumer(join(project, 'out/consumer.mjs'), [api.url, esmOwner.token]);
    expect(seen).toEqual({
      sdkEntry: pathToFileURL(join(project, 'node_modules/@svc/sdk/dist/index.js')).href,
      name: 'renamed from ESM',
      retentionDays: 7,
      versions: [1, 2],
      missing: { status: 404, code: 'not_found' },
      missingIsApiError: true,
      qnames: ['a.example'],
      domain: 'ERR_MODULE_NOT_FOUND',
    });
  }, 120_000);

  it('runs the CommonJS entry (dist/index.cjs) on Node against a real server, @svc/domain unresolvable', async () => {
    await compileNode16();
    const seen = await runConsumer(join(project, 'out/consumer.cjs'), [api.url, cjsOwner.token]);
    expect(seen).toEqual({
      sdkEntry: join(project, 'node_modules/@svc/sdk/dist/index.cjs'),
      name: 'packed from CJS',
      version: 1,
      missing: { status: 404, code: 'not_found' },
      listed: ['packed from CJS'],
      domain: 'MODULE_NOT_FOUND',
    });
  }, 120_000);
});
