import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNodeConfig, NodeConfigError, PRIVATE_CLIENTS } from '../src/index.js';

async function configFile(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'svc-node-config-')), name);
  await writeFile(path, text);
  return path;
}

const MINIMAL = `
api_url = "https://api.svc.example"
data_dir = "/var/lib/svc-node"

[[upstreams]]
address = "9.9.9.9:53"
`;

async function problemsOf(load: Promise<unknown>): Promise<readonly string[]> {
  const error = await load.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof NodeConfigError))
    throw new Error(`expected a NodeConfigError, got ${String(error)}`);
  return error.problems;
}

describe(loadNodeConfig.name, () => {
  it('reads a TOML file and fills what it leaves out with the documented defaults', async () => {
    const config = await loadNodeConfig(await configFile('svc-node.toml', MINIMAL), {});
    expect(config).toMatchObject({
      api_url: 'https://api.svc.example',
      open_resolver: false,
      listen: { dns: [{ host: '127.0.0.1', port: 53 }], dot: [], doh: [] },
      access: { allow: [...PRIVATE_CLIENTS] },
      cache: { max_mb: 64, max_ttl_seconds: 86_400, stale_seconds: 86_400 },
      upstreams: [{ address: { host: '9.9.9.9', port: 53 }, transport: 'udp' }],
      upstream_timeout_ms: 2_500,
    });
  });

  it('reads a JSON file when its name ends in .json', async () => {
    const path = await configFile(
      'svc-node.json',
      JSON.stringify({
        api_url: 'http://127.0.0.1:8080',
        data_dir: './data',
        upstreams: [{ address: '[::1]:5300', transport: 'tcp' }],
      }),
    );
    expect((await loadNodeConfig(path, {})).upstreams).toEqual([
      { address: { host: '::1', port: 5300 }, transport: 'tcp' },
    ]);
  });

  it('lets the environment override the file, and stand for it entirely', async () => {
    const environment = {
      SVC_NODE_API_URL: 'https://other.svc.example',
      SVC_NODE_DATA_DIR: '/srv/node',
      SVC_NODE_UPSTREAMS: '127.0.0.1:5300, tls://9.9.9.9:853',
      SVC_NODE_LISTEN_DNS: '192.168.1.2:53,[fd00::2]:53',
      SVC_NODE_ALLOW: '192.168.1.0/24',
      SVC_NODE_CACHE_MAX_MB: '16',
    };
    const fromFile = await loadNodeConfig(await configFile('svc-node.toml', MINIMAL), environment);
    const alone = await loadNodeConfig(null, environment);
    for (const config of [fromFile, alone])
      expect(config).toMatchObject({
        api_url: 'https://other.svc.example',
        data_dir: '/srv/node',
        upstreams: [
          { address: { host: '127.0.0.1', port: 5300 }, transport: 'udp' },
          { address: { host: '9.9.9.9', port: 853 }, transport: 'tls' },
        ],
        listen: {
          dns: [
            { host: '192.168.1.2', port: 53 },
            { host: 'fd00::2', port: 53 },
          ],
        },
        access: { allow: ['192.168.1.0/24'] },
        cache: { max_mb: 16 },
      });
  });

  it('names every field that is wrong, unknown or missing', async () => {
    const path = await configFile(
      'svc-node.toml',
      `api_url = "ftp://x"\nlisten = { dns = ["localhost"], doh = ["127.0.0.1:443"] }\ncache = { max_mb = -1 }\ntypo = 1\n`,
    );
    const problems = await problemsOf(loadNodeConfig(path, {}));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^api_url: /),
        expect.stringMatching(/^data_dir: /),
        expect.stringMatching(/^listen\.dns\.0: "localhost" is not host:port/),
        expect.stringMatching(/^cache\.max_mb: /),
        expect.stringMatching(/^upstreams: /),
        expect.stringMatching(/typo/),
      ]),
    );
  });

  it('asks for a tls section when DoT or DoH is to listen', async () => {
    const problems = await problemsOf(
      loadNodeConfig(null, { ...required, SVC_NODE_LISTEN_DOT: '127.0.0.1:853' }),
    );
    expect(problems).toEqual(['tls: listen.dot and listen.doh need a tls section']);
  });

  it('says where a file that is not TOML goes wrong', async () => {
    const problems = await problemsOf(
      loadNodeConfig(await configFile('bad.toml', 'api_url = "unterminated\n'), {}),
    );
    expect(problems[0]).toMatch(/bad\.toml: /);
  });
});

const required = {
  SVC_NODE_API_URL: 'https://api.svc.example',
  SVC_NODE_DATA_DIR: '/d',
  SVC_NODE_UPSTREAMS: '9.9.9.9:53',
};

describe('svc-node refuses to start as an open resolver unless told (issue 41)', () => {
  it('refuses a public listening address', async () => {
    const problems = await problemsOf(
      loadNodeConfig(null, { ...required, SVC_NODE_LISTEN_DNS: '203.0.113.10:53' }),
    );
    expect(problems.join('\n')).toMatch(/203\.0\.113\.10 is a public address; set open_resolver = true/);
  });

  it('refuses an allow-list admitting the internet on a wildcard address', async () => {
    const problems = await problemsOf(
      loadNodeConfig(null, { ...required, SVC_NODE_LISTEN_DNS: '0.0.0.0:53', SVC_NODE_ALLOW: '0.0.0.0/0' }),
    );
    expect(problems.join('\n')).toMatch(/access\.allow: admits public addresses/);
  });

  it('accepts a wildcard address with the default allow-list, and a private address with any', async () => {
    await expect(
      loadNodeConfig(null, { ...required, SVC_NODE_LISTEN_DNS: '0.0.0.0:53,[::]:53' }),
    ).resolves.toBeDefined();
    await expect(
      loadNodeConfig(null, {
        ...required,
        SVC_NODE_LISTEN_DNS: '192.168.1.2:53',
        SVC_NODE_ALLOW: '0.0.0.0/0',
      }),
    ).resolves.toBeDefined();
  });

  it('starts as an open resolver when open_resolver is true', async () => {
    const config = await loadNodeConfig(null, {
      ...required,
      SVC_NODE_LISTEN_DNS: '203.0.113.10:53',
      SVC_NODE_ALLOW: '0.0.0.0/0,::/0',
      SVC_NODE_OPEN_RESOLVER: 'true',
    });
    expect(config.open_resolver).toBe(true);
  });

  it('names an allow-list entry that is not an address range', async () => {
    const problems = await problemsOf(
      loadNodeConfig(null, { ...required, SVC_NODE_ALLOW: '10.0.0.0/8,not-a-range' }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^access\.allow: "not-a-range" is not an address range/),
    ]);
  });
});
