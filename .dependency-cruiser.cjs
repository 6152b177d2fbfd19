// Layering of svc, checked by `npm run lint` (docs/architecture.md draws it). Paths are the sources the
// workspace packages resolve to (their `source` export condition).

/** Where a rule's sources are: a package's own code, not its tests or tools. */
const src = (pkg) => `^packages/${pkg}/src/`;
const pkgs = (...names) => `^packages/(${names.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'The domain imports only zod and itself: I/O, the clock and randomness reach it through ports (docs/adr/0001).',
      severity: 'error',
      from: { path: src('domain') },
      to: { pathNot: [src('domain'), '^node_modules/zod/'] },
    },
    {
      name: 'adapters-on-the-domain-only',
      comment: 'Adapters implement ports of the domain; they know no server, CLI, client or tool.',
      severity: 'error',
      from: { path: src('adapters') },
      to: { path: pkgs('http-server', 'cli', 'sdk', 'node-agent-kit', 'edge-simulator', 'dashboard') },
    },
    {
      name: 'memory-is-not-postgres',
      comment: 'The in-memory family stands alone: shared pieces live in a neutral module of the adapters.',
      severity: 'error',
      from: { path: '^packages/adapters/src/memory/' },
      to: { path: '^packages/adapters/src/postgres/' },
    },
    {
      name: 'composition-on-domain-and-adapters',
      comment:
        'The composition binds the ports to the adapter families and the use cases (the simulator among them) on them; it serves no HTTP and runs no command (docs/adr/0024).',
      severity: 'error',
      from: { path: src('composition') },
      to: { path: pkgs('http-server', 'cli', 'sdk', 'node-agent-kit', 'dashboard') },
    },
    {
      name: 'composition-is-on-top',
      comment:
        'The domain, the adapters and the tools they serve never reach for the composition that binds them.',
      severity: 'error',
      from: { path: '^packages/(domain|adapters|edge-simulator)/src/' },
      to: { path: pkgs('composition') },
    },
    {
      name: 'edge-simulator-is-a-tool',
      comment:
        'The simulator builds on the domain and the ClickHouse adapter; nothing it uses serves requests.',
      severity: 'error',
      from: { path: src('edge-simulator') },
      to: { path: pkgs('http-server', 'cli', 'sdk', 'node-agent-kit', 'dashboard') },
    },
    {
      name: 'server-below-the-cli',
      comment:
        'The HTTP server is composed by the CLI, never the other way round; it talks to no client package.',
      severity: 'error',
      from: { path: src('http-server') },
      to: { path: pkgs('cli', 'sdk', 'node-agent-kit', 'dashboard') },
    },
    {
      name: 'cli-serves-through-serve-only',
      comment:
        'Storage commands build their container from the composition; only `svc serve` starts the HTTP server (docs/adr/0024).',
      severity: 'error',
      from: { path: src('cli'), pathNot: '^packages/cli/src/commands/serve\\.command\\.ts$' },
      to: { path: pkgs('http-server') },
    },
    {
      name: 'clients-over-http-only',
      comment:
        'The SDK, the node kit and the dashboard reach svc over HTTP: no adapter, server or tool inside.',
      severity: 'error',
      from: { path: '^packages/(sdk|node-agent-kit|node|dashboard)/src/' },
      to: { path: pkgs('adapters', 'composition', 'http-server', 'cli', 'edge-simulator') },
    },
    {
      name: 'node-runs-without-the-control-plane',
      comment:
        'svc-node is installed on a Raspberry Pi or a VM without the control plane: its sources use the node kit, the SDK and libraries only, never a server package (issue 41, docs/adr/0051).',
      severity: 'error',
      from: { path: src('node') },
      to: {
        path: pkgs(
          'domain',
          'adapters',
          'composition',
          'http-server',
          'cli',
          'edge-simulator',
          'dashboard',
          'testing',
        ),
      },
    },
    {
      name: 'testing-is-for-tests',
      comment:
        "The shared harnesses of @svc/testing serve tests only: no package source imports them. The dashboard's component tests live beside its components in src/, with their helpers in src/testing/ (which the app never imports).",
      severity: 'error',
      from: {
        path: '^packages/(?!testing/)[^/]+/src/',
        pathNot: '^packages/dashboard/src/(testing/|.+\\.test\\.tsx$)',
      },
      to: { path: '^packages/testing/' },
    },
    {
      name: 'dashboard-app-without-its-tests',
      comment:
        "The dashboard's app never imports its component tests or their helpers (src/testing/), which start servers and need Node.",
      severity: 'error',
      from: {
        path: '^packages/dashboard/src/',
        pathNot: '^packages/dashboard/src/(testing/|.+\\.test\\.tsx$)',
      },
      to: { path: '^packages/dashboard/src/(testing/|.+\\.test\\.tsx$)' },
    },
    {
      name: 'no-relative-imports-across-packages',
      comment:
        "Tests, examples, benches and each package (its tests and tools included) use another package by its name and public entry, as embedders do, never by a relative path into that package's src/, which reaches what it does not export (issue 31).",
      severity: 'error',
      // $1 is the importing package's folder; tests and examples have none, so every package is another's.
      from: { path: '^(?:test|examples|packages/([^/]+))/' },
      to: {
        path: '^packages/[^/]+/src/',
        pathNot: '^packages/$1/',
        dependencyTypes: ['local'],
        dependencyTypesNot: ['aliased'],
      },
    },
    {
      name: 'no-circular',
      comment:
        'No cycle of files anywhere: a cycle makes the load order decide what a module sees (an import still undefined while its importer runs), and two files that need each other are one concept or share a third.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment:
        'Every source is imported by something: a file nothing imports is dead code. Entries (package entries, binaries, tests, benches, configuration, scripts) are imported by tools instead.',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)[^/]+\\.d\\.ts$',
          '(^|/)(tsup|vite|vitest|playwright)\\.config\\.[cm]?[jt]s$',
          '\\.(test|e2e\\.test|bench)\\.tsx?$',
          '^packages/[^/]+/src/index\\.ts$',
          '^packages/[^/]+/(scripts|bin)/',
          '^examples/[^/]+/',
          '^test/',
          // Named by vitest.config.ts (the dashboard's component tests' environment and setup).
          '^packages/dashboard/src/testing/(setup|jsdom-environment)\\.ts$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|build|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
    combinedDependencies: true,
  },
};
