import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ApiError, createClient, NetworkError, type SvcClient } from '@svc/sdk';
import type { Command } from 'commander';
import { ExitCode, type Output, processOutput, usageError } from '../output.js';

/** Flags every API-client command takes (RUNNER.md "Other commands"). */
interface ApiFlags {
  apiUrl?: string;
  token?: string;
  tokenStdin?: boolean;
  config?: string;
  json?: boolean;
}

/** What an API-client action receives: the SDK client and where to write. */
export interface ApiContext {
  client: SvcClient;
  output: Output;
}

/** Adds --api-url, --token, --config and --json to an API-client command. */
export function apiOptions(command: Command): Command {
  return command
    .option('--api-url <url>', 'API base address (SVC_API_URL; default from the config file)')
    .option(
      '--token <token>',
      'API token with the admin scope; other local users can read a command line (ps): prefer SVC_TOKEN, --token-stdin or the config file',
    )
    .option('--token-stdin', 'read the API token from standard input (its first line)')
    .option(
      '--config <file>',
      'JSON config {api_url, token}, mode 0600 (SVC_CONFIG; default ~/.config/svc/config.json)',
    )
    .option('--json', 'machine-readable output');
}

function defaultConfigPath(): string {
  const base = process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
  return join(base, 'svc', 'config.json');
}

/** Reads the config file; it holds a credential, so one readable by group or others is refused. */
function readConfig(path: string, explicit: boolean): { api_url?: string; token?: string } {
  if (!existsSync(path)) {
    if (explicit) usageError(`config file ${path} does not exist`);
    return {};
  }
  if ((statSync(path).mode & 0o077) !== 0) {
    usageError(`config file ${path} holds a token: make it readable by its owner only (chmod 600 ${path})`);
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    const { api_url, token } = parsed as Record<string, unknown>;
    return {
      ...(typeof api_url === 'string' ? { api_url } : {}),
      ...(typeof token === 'string' ? { token } : {}),
    };
  } catch (error) {
    return usageError(
      `config file ${path} is not a JSON object {api_url, token}: ${(error as Error).message}`,
    );
  }
}

/** An environment setting; set but empty counts as unset. */
function fromEnvironment(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The first line of standard input: a token piped in (`pass show svc | svc … --token-stdin`). */
function tokenFromStdin(): string {
  let text: string;
  try {
    text = readFileSync(0, 'utf8');
  } catch (error) {
    return usageError(`--token-stdin: cannot read standard input: ${(error as Error).message}`);
  }
  const token = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (token === '') usageError('--token-stdin: standard input holds no token');
  return token;
}

/**
 * The token of the command line's flags. `--token` works, but a process's arguments are readable by every
 * local user (`ps`, /proc/<pid>/cmdline) while it runs, and land in shell history: it is warned about.
 */
function tokenOfFlags(flags: ApiFlags, warn: (text: string) => void): string | undefined {
  if (flags.token !== undefined && flags.tokenStdin === true)
    usageError('pass either --token or --token-stdin, not both');
  if (flags.tokenStdin === true) return tokenFromStdin();
  if (flags.token !== undefined) {
    warn(
      'svc: warning: --token puts the API token on the command line, where other local users can read it (ps) and shell history keeps it; use SVC_TOKEN, --token-stdin or the config file',
    );
  }
  return flags.token;
}

/** The client of an API-client command: flags, then environment, then the config file. */
function clientOf(flags: ApiFlags, warn: (text: string) => void = () => undefined): SvcClient {
  const explicitConfig = flags.config ?? fromEnvironment('SVC_CONFIG');
  const config = readConfig(explicitConfig ?? defaultConfigPath(), explicitConfig !== undefined);
  const baseUrl = flags.apiUrl ?? fromEnvironment('SVC_API_URL') ?? config.api_url;
  const token = tokenOfFlags(flags, warn) ?? fromEnvironment('SVC_TOKEN') ?? config.token;
  if (baseUrl === undefined || baseUrl === '')
    usageError('no API address: pass --api-url or set SVC_API_URL');
  if (token === undefined || token === '')
    usageError('no API token: set SVC_TOKEN, pass --token-stdin, or put it in the config file');
  try {
    new URL(baseUrl);
  } catch {
    usageError(`--api-url must be an http(s) address (got ${baseUrl})`);
  }
  return createClient({ baseUrl, token, maxRetries: 0 });
}

/**
 * Runs an API-client action: an API problem prints its code (and, with --json, the problem document on
 * stdout) and exits 1; usage errors exit 2 (RUNNER.md exit codes).
 */
export function apiAction<A extends unknown[]>(
  run: (context: ApiContext, ...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const command = args.at(-1) as Command;
    const flags = command.opts<ApiFlags>();
    const output = processOutput(flags.json === true);
    const client = clientOf(flags, output.error);
    try {
      await run({ client, output }, ...args);
    } catch (error) {
      if (error instanceof ApiError) {
        const fields = error.fieldErrors.map((field) => `  ${field.field}: ${field.message}`).join('\n');
        output.error(`svc: ${error.code} (${error.status}): ${error.problem.detail ?? error.message}`);
        if (fields !== '') output.error(fields);
        if (output.json) output.line(JSON.stringify(error.problem));
        process.exitCode = ExitCode.apiError;
        return;
      }
      if (error instanceof NetworkError) {
        output.error(`svc: cannot reach the API: ${error.message}`);
        process.exitCode = ExitCode.apiError;
        return;
      }
      throw error;
    }
  };
}

/**
 * Asks before a destructive action unless --yes: without a terminal to ask on, refuses (exit 2), so a script
 * never changes something by accident.
 */
export async function confirm(question: string, yes: boolean | undefined): Promise<boolean> {
  if (yes === true) return true;
  if (process.stdin.isTTY !== true) usageError(`${question}: refusing without --yes (no terminal to ask)`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A positive whole number option (a page size or count), else a usage error. */
export function wholeNumber(name: string, value: string, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max)
    usageError(`${name} must be a whole number from 1 to ${max}`);
  return parsed;
}

/** Rows as aligned columns, a header first; `(none)` for no rows. */
export function table(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '(none)';
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map(line)].join('\n');
}
