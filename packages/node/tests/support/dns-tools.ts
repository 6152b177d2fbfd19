import { execFile, spawnSync } from 'node:child_process';

/** A DNS command-line client nobody here wrote: Knot's `kdig` or BIND's `dig`. */
export type DnsTool = 'kdig' | 'dig';

/** One resource record as the tool printed it. */
interface PrintedRecord {
  name: string;
  ttl: number;
  type: string;
  data: string;
}

/** What the tool printed of the answer it took in the end. */
export interface ToolAnswer {
  status: string;
  flags: string[];
  /** The EDNS pseudo-section was printed: the answer had an OPT record. */
  edns: boolean;
  ede: { code: number; text: string } | null;
  answers: PrintedRecord[];
  authorities: PrintedRecord[];
  /** The transport of the answer printed (kdig shows TLS as TCP, and DoH as HTTPS). */
  transport: 'UDP' | 'TCP' | 'HTTPS' | null;
  output: string;
}

/** How to ask. */
export interface ToolQuery {
  port: number;
  name: string;
  type?: string;
  /** Sends an OPT record (EDNS version 0, or the version given). */
  edns?: boolean | number;
  tcp?: boolean;
  /** Over TLS, verifying the server's certificate against this CA file for the name `localhost`. */
  tlsCa?: string;
  /** Over HTTPS (DoH, RFC 8484; HTTP/2), verifying as `tlsCa` says; GET when `https` is `get`, else POST. */
  https?: 'get' | 'post';
  /** The DoH path asked (kdig only; default `/dns-query`): `/dns-query/<device>` names a device. */
  httpsPath?: string;
  /** Over TLS, sending this server name (kdig only): a `<device>-<profile id>` host names a device. */
  tlsSni?: string;
  /** Sets the DO bit (asks for DNSSEC records). */
  dnssec?: boolean;
  /** Shows a truncated UDP answer as it is instead of asking again over TCP. */
  ignoreTruncation?: boolean;
}

/** The tools installed here (`.ci/run` installs them when missing; tests that need one say they skip). */
const INSTALLED_TOOLS: DnsTool[] = (['kdig', 'dig'] as const).filter(
  (tool) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).error === undefined,
);

/** Why tests of `tool` cannot run here, or undefined when they can. */
export function toolMissing(tool: DnsTool): string | undefined {
  return INSTALLED_TOOLS.includes(tool)
    ? undefined
    : `${tool} is not installed (apt-get install ${PACKAGE[tool]})`;
}

const PACKAGE: Record<DnsTool, string> = { kdig: 'knot-dnsutils', dig: 'dnsutils' };

/** Asks the node at 127.0.0.1 with `tool` and reads what it printed. */
export async function ask(tool: DnsTool, query: ToolQuery): Promise<ToolAnswer> {
  const output = await run(tool, argumentsFor(tool, query));
  return parse(output);
}

function argumentsFor(tool: DnsTool, query: ToolQuery): string[] {
  const edns =
    query.edns === undefined || query.edns === false
      ? ['+noedns']
      : [`+edns=${query.edns === true ? 0 : query.edns}`];
  const common = ['@127.0.0.1', '-p', String(query.port), query.name, query.type ?? 'A', ...edns];
  const verify = query.tlsCa === undefined ? [] : [`+tls-ca=${query.tlsCa}`, '+tls-hostname=localhost'];
  const path = query.httpsPath === undefined ? [] : [`+https=${query.httpsPath}`];
  const https =
    query.https === undefined ? [] : query.https === 'get' ? ['+https-get', ...path] : ['+https', ...path];
  const encrypted = query.tlsCa !== undefined || query.tlsSni !== undefined;
  const tls = [
    ...(query.https === undefined && encrypted ? ['+tls'] : []),
    ...https,
    ...verify,
    ...(query.tlsSni === undefined ? [] : [`+tls-sni=${query.tlsSni}`]),
  ];
  const dnssec = query.dnssec === true ? ['+dnssec'] : [];
  if (tool === 'kdig')
    return [
      ...common,
      ...(query.tcp === true ? ['+tcp'] : []),
      ...tls,
      ...dnssec,
      ...(query.ignoreTruncation === true ? ['+ignore'] : []),
      '+timeout=3',
      '+retry=0',
    ];
  return [
    ...common,
    ...(query.tcp === true ? ['+tcp'] : []),
    ...tls,
    ...dnssec,
    ...(query.ignoreTruncation === true ? ['+ignore'] : []),
    '+nocookie',
    '+time=3',
    '+tries=1',
  ];
}

function run(tool: DnsTool, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { timeout: 15_000 }, (error, stdout, stderr) => {
      // Both tools print the answer and exit 0 for any rcode; another exit is a failure to ask at all.
      if (error !== null)
        reject(new Error(`${tool} ${args.join(' ')}: ${error.message}\n${stdout}${stderr}`));
      else resolve(`${stdout}${stderr}`);
    });
  });
}

/** Reads kdig's and dig's presentation alike (both print the sections of RFC 1035 master-file records). */
function parse(output: string): ToolAnswer {
  // After a retry over TCP, only the last answer counts.
  const lines = output.split('\n');
  const lastHeader = lines.findLastIndex((line) => /->>HEADER<<-/.test(line));
  const last = lines.slice(Math.max(0, lastHeader));
  const text = last.join('\n');
  const sections: Record<'answers' | 'authorities', PrintedRecord[]> = { answers: [], authorities: [] };
  let section: keyof typeof sections | null = null;
  for (const line of last) {
    const heading = /^;; (ANSWER|AUTHORITY|ADDITIONAL|QUESTION) SECTION:/.exec(line);
    if (heading !== null) {
      section = heading[1] === 'ANSWER' ? 'answers' : heading[1] === 'AUTHORITY' ? 'authorities' : null;
      continue;
    }
    const record = /^(\S+)\s+(\d+)\s+IN\s+(\S+)\s+(.+)$/.exec(line);
    if (section !== null && record !== null)
      sections[section].push({
        name: record[1] ?? '',
        ttl: Number(record[2]),
        type: record[3] ?? '',
        data: (record[4] ?? '').trim(),
      });
  }
  const transport = /\((UDP|TCP|HTTPS)\)/.exec(text)?.[1];
  const ede = /EDE: (\d+)[^:\n]*(?::\s*['(](.*)[')])?/.exec(text);
  return {
    status: /status: ([A-Z]+)/.exec(text)?.[1] ?? '',
    flags: (/;; [Ff]lags: ([a-z ]*)/.exec(text)?.[1] ?? '').trim().split(/\s+/),
    edns: /EDNS PSEUDOSECTION|OPT PSEUDOSECTION/.test(text),
    ede: ede === null ? null : { code: Number(ede[1]), text: ede[2] ?? '' },
    answers: sections.answers,
    authorities: sections.authorities,
    transport: transport === 'UDP' || transport === 'TCP' || transport === 'HTTPS' ? transport : null,
    output,
  };
}
