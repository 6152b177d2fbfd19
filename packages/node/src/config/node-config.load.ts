import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ClientAccess, exposesPublicly, InvalidCidrError, isWildcard } from '../listeners/client-access.js';
import { NodeConfig } from './node-config.schema.js';

/** A configuration the node cannot start with: each problem names the field it is about. */
export class NodeConfigError extends Error {
  constructor(
    readonly problems: readonly string[],
    options?: ErrorOptions,
  ) {
    super(
      `the configuration is not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      options,
    );
  }
}

/** Environment variables that override fields of the file, with the field each sets. */
const ENVIRONMENT_OVERRIDES = {
  SVC_NODE_API_URL: 'api_url',
  SVC_NODE_DATA_DIR: 'data_dir',
  SVC_NODE_OPEN_RESOLVER: 'open_resolver (true or false)',
  SVC_NODE_LISTEN_DNS: 'listen.dns (comma-separated host:port)',
  SVC_NODE_LISTEN_DOT: 'listen.dot (comma-separated host:port)',
  SVC_NODE_LISTEN_DOH: 'listen.doh (comma-separated host:port)',
  SVC_NODE_TLS_CERT: 'tls.certificate',
  SVC_NODE_TLS_KEY: 'tls.key',
  SVC_NODE_ALLOW: 'access.allow (comma-separated CIDRs)',
  SVC_NODE_CACHE_MAX_MB: 'cache.max_mb',
  SVC_NODE_UPSTREAMS: 'upstreams (comma-separated [udp|tcp|tls://]host:port)',
} as const;

type Environment = Readonly<Record<string, string | undefined>>;
type RawConfig = Record<string, unknown>;

/**
 * Reads the configuration: the file at `path` (TOML, or JSON when it ends in `.json`; none when `path` is
 * null), then the environment's overrides ({@link ENVIRONMENT_OVERRIDES}), checked against {@link NodeConfig}
 * and against running as an open resolver by mistake ({@link openResolverProblems}).
 */
export async function loadNodeConfig(path: string | null, environment: Environment): Promise<NodeConfig> {
  const raw = path === null ? {} : await readConfigFile(path);
  const parsed = NodeConfig.safeParse(withOverrides(raw, environment));
  if (!parsed.success)
    throw new NodeConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`),
    );
  const problems = openResolverProblems(parsed.data);
  if (problems.length > 0) throw new NodeConfigError(problems);
  return parsed.data;
}

async function readConfigFile(path: string): Promise<RawConfig> {
  const text = await readFile(path, 'utf8').catch((error: Error) => {
    throw new NodeConfigError([`${path}: cannot be read (${error.message})`], { cause: error });
  });
  try {
    const parsed: unknown = extname(path) === '.json' ? JSON.parse(text) : parseToml(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('the file must hold a table of settings');
    return { ...parsed };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new NodeConfigError([`${path}: ${reason}`], { cause: error });
  }
}

function withOverrides(raw: RawConfig, environment: Environment): RawConfig {
  const config: RawConfig = { ...raw };
  const set = (name: keyof typeof ENVIRONMENT_OVERRIDES, apply: (value: string) => void) => {
    const value = environment[name];
    if (value !== undefined && value !== '') apply(value);
  };
  const section = (name: string): RawConfig => {
    const current = config[name];
    const copy: RawConfig = typeof current === 'object' && current !== null ? { ...current } : {};
    config[name] = copy;
    return copy;
  };
  const list = (value: string) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  set('SVC_NODE_API_URL', (value) => (config.api_url = value));
  set('SVC_NODE_DATA_DIR', (value) => (config.data_dir = value));
  set(
    'SVC_NODE_OPEN_RESOLVER',
    (value) => (config.open_resolver = value === 'true' ? true : value === 'false' ? false : value),
  );
  set('SVC_NODE_LISTEN_DNS', (value) => (section('listen').dns = list(value)));
  set('SVC_NODE_LISTEN_DOT', (value) => (section('listen').dot = list(value)));
  set('SVC_NODE_LISTEN_DOH', (value) => (section('listen').doh = list(value)));
  set('SVC_NODE_TLS_CERT', (value) => (section('tls').certificate = value));
  set('SVC_NODE_TLS_KEY', (value) => (section('tls').key = value));
  set('SVC_NODE_ALLOW', (value) => (section('access').allow = list(value)));
  set('SVC_NODE_CACHE_MAX_MB', (value) => (section('cache').max_mb = Number(value)));
  set('SVC_NODE_UPSTREAMS', (value) => (config.upstreams = list(value).map(upstreamOf)));
  return config;
}

/** `tls://9.9.9.9:853` or `9.9.9.9:53` as an upstream setting (the scheme is the transport, udp by default). */
function upstreamOf(text: string): RawConfig {
  const scheme = /^(udp|tcp|tls):\/\//.exec(text);
  return scheme === null
    ? { address: text }
    : { address: text.slice(scheme[0].length), transport: scheme[1] };
}

/**
 * Why this configuration would make an open resolver, or nothing. Without `open_resolver = true` the node does
 * not start when it listens on a public address, nor when it listens beyond loopback and private addresses (a
 * wildcard included) while its allow-list admits public clients. A wildcard with an allow-list of private
 * ranges only is fine: the allow-list is what keeps the internet out.
 */
function openResolverProblems(config: NodeConfig): string[] {
  if (config.open_resolver) return [];
  let access: ClientAccess;
  try {
    access = ClientAccess.of(config.access.allow);
  } catch (error) {
    if (error instanceof InvalidCidrError) return [`access.allow: ${error.message}`];
    throw error;
  }
  const { dns, dot, doh } = config.listen;
  const exposed = [...dns, ...dot, ...doh].filter((address) => exposesPublicly(address.host));
  const problems = exposed
    .filter((address) => !isWildcard(address.host))
    .map(
      (address) =>
        `listen: ${address.host} is a public address; set open_resolver = true to answer the internet from it`,
    );
  if (exposed.length > 0 && access.admitsPublic)
    problems.push(
      `access.allow: admits public addresses while the node listens on ${exposed.map((address) => address.host).join(', ')}; set open_resolver = true to run an open resolver`,
    );
  return problems;
}
