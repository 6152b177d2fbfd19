import { type Dispatcher, request } from 'undici';
import type { FuzzOperation, FuzzRequest } from './fuzz-requests.js';
import type { JsonSchema, SchemaComponents } from './schema-arbitrary.js';

// What a fuzzed request may be answered (spec 7), and how it is sent and its stored effect digested.
/** Requests per run: 2,000 by default, ten times more with SVC_RELIABILITY_LONG=1. */
export const REQUESTS = Number(
  process.env.SVC_FUZZ_REQUESTS ?? (process.env.SVC_RELIABILITY_LONG === '1' ? 20_000 : 2_000),
);
export const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20261123);
export const BATCH = 100;
/** A stored row as digested: every column but the times of last use, which move with any request. */
const WHOLE_ROW = "to_jsonb(t) - '{last_used_at,last_seen_at,last_seen}'::text[]";
/**
 * Tables holding the account's resources, with the part of each row digested before and after each write.
 * An export's status moves in the background after the accepted request that started it: only which exports
 * exist is compared.
 */
export const STATE_TABLES: Record<string, string> = {
  accounts: WHOLE_ROW,
  account_preferences: WHOLE_ROW,
  organisations: WHOLE_ROW,
  profiles: WHOLE_ROW,
  profile_suspensions: WHOLE_ROW,
  linked_ips: WHOLE_ROW,
  devices: WHOLE_ROW,
  nodes: WHOLE_ROW,
  list_reports: WHOLE_ROW,
  api_tokens: WHOLE_ROW,
  operator_blocks: WHOLE_ROW,
  source_blocks: WHOLE_ROW,
  operator_files: WHOLE_ROW,
  audit_log: WHOLE_ROW,
  data_exports: 't.id',
  passkeys: WHOLE_ROW,
  recovery_codes: WHOLE_ROW,
};
/** Statuses any route may answer whatever its own list says (spec 7 and the HTTP layer in front of routes). */
const GENERIC_STATUSES = new Set([400, 401, 403, 404, 405, 406, 413, 415, 429]);
/** Server errors a route may answer when the document lists them for it: never 500, never a dependency down. */
const DOCUMENTED_SERVER_ERRORS = new Set([501, 502, 503, 504]);
/**
 * Operations that, when they succeed, end the fuzzer's own credentials (sign out, revoke every session,
 * request the account's deletion): sent without credentials, so they are fuzzed up to authentication.
 */
export const CREDENTIAL_ENDING = new Set([
  'post /v1/auth/logout',
  'delete /v1/auth/sessions',
  'delete /v1/auth/me',
]);

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      Omit<FuzzOperation, 'method' | 'path' | 'documented' | 'body'> & {
        responses: Record<string, unknown>;
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
  components: { schemas: SchemaComponents };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export async function deliver(url: string, fuzz: FuzzRequest): Promise<Answer> {
  const answer = await request(`${url}${fuzz.path}`, {
    method: fuzz.operation.method.toUpperCase() as Dispatcher.HttpMethod,
    headers: fuzz.headers,
    body: fuzz.body,
    // A connection per request: oversized and rejected bodies make the server close connections, and a pooled
    // connection closed that way would fail the next request instead of this one.
    reset: true,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // A live log stream never ends by itself: its status and headers are the answer.
  if ((headers['content-type'] ?? '').startsWith('text/event-stream')) {
    answer.body.destroy();
    return { status: answer.statusCode, headers, text: '' };
  }
  return { status: answer.statusCode, headers, text: await answer.body.text() };
}

/** Why an answer breaks the contract (spec 7), or undefined when it keeps it. */
export function contractBreach(fuzz: FuzzRequest, answer: Answer): string | undefined {
  const { status } = answer;
  if (status < 400) return undefined;
  if (status >= 500 && !(DOCUMENTED_SERVER_ERRORS.has(status) && fuzz.operation.documented.has(status)))
    return `server error ${status}`;
  if (!fuzz.operation.documented.has(status) && !GENERIC_STATUSES.has(status))
    return `undocumented status ${status}`;
  if (!(answer.headers['content-type'] ?? '').startsWith('application/problem+json'))
    return `not a problem document (${answer.headers['content-type'] ?? 'no content type'})`;
  let problem: Record<string, unknown>;
  try {
    problem = JSON.parse(answer.text) as Record<string, unknown>;
  } catch (error) {
    return `problem body is not JSON (${error instanceof Error ? error.message : 'unparsable'})`;
  }
  if (typeof problem.code !== 'string') return 'problem without code';
  if (problem.code === 'internal') return `problem ${problem.code} (${status})`;
  if (typeof problem.type !== 'string' || !problem.type.endsWith(`/${problem.code}`)) return 'problem type';
  if (typeof problem.title !== 'string' || problem.title.length === 0) return 'problem without title';
  if (problem.status !== status) return `problem status ${String(problem.status)} on a ${status}`;
  const errors = problem.errors;
  if (problem.code === 'validation_failed' && (!Array.isArray(errors) || errors.length === 0))
    return 'validation_failed without errors[]';
  if (errors !== undefined) {
    if (!Array.isArray(errors)) return 'errors is not an array';
    for (const entry of errors as Array<Record<string, unknown>>) {
      if (typeof entry.field !== 'string' || typeof entry.message !== 'string')
        return 'errors[] entry without field';
    }
  }
  return undefined;
}
