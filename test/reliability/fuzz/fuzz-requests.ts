import fc from 'fast-check';
import { type JsonSchema, nearValue, type SchemaComponents, validValue } from './schema-arbitrary.js';

/** One operation of the served document. */
export interface FuzzOperation {
  method: string;
  path: string;
  operationId: string;
  /** Statuses the document lists for it. */
  documented: Set<number>;
  security: Array<Record<string, string[]>>;
  parameters: Array<{
    name: string;
    in: 'path' | 'query' | 'header';
    required?: boolean;
    schema: JsonSchema;
  }>;
  body: JsonSchema | undefined;
}

/** What a request does wrong (or right): the classes counted in the printed figures. */
export type FuzzClass =
  | 'schema-valid'
  | 'near-schema'
  | 'wrong-type body'
  | 'huge string'
  | 'deep nesting'
  | 'invalid utf-8'
  | 'nul characters'
  | 'invalid json'
  | 'wrong content-type'
  | 'bogus cursor'
  | 'oversized header'
  | 'random path id'
  | 'bad idempotency key'
  | 'bad if-match';

/** A request ready to send: `path` includes the query string; `body` is the exact bytes. */
export interface FuzzRequest {
  operation: FuzzOperation;
  fuzzClass: FuzzClass;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** Real ids of the fuzzed account's resources, so that some requests reach stored rows. */
export interface KnownIds {
  [parameter: string]: string[];
}

/** Built by hand: depth 10,000 would overflow JSON.stringify's recursion well before the server's. */
function deeplyNested(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}

const INVALID_UTF8 = [
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
];

const INVALID_JSON = [
  '{',
  '{"a":}',
  "{'name':'x'}",
  '[1,2,',
  'NaN',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  'true',
  '"string"',
  '',
];

const BOGUS_CURSORS = [
  'x',
  'AAAA',
  '%00',
  'eyJ0IjoxfQ',
  'a'.repeat(1025),
  'a'.repeat(513),
  '../../',
  'null',
  '-1',
  '😀',
  'eyJwb3MiOjF9.forged',
];

const RANDOM_IDS = [
  '000000',
  'zzzzzz',
  'ABCDEF',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  'a'.repeat(300),
  '%00',
  '..%2F..%2Fetc',
  '%E2%80%AE',
  '%zz',
  '😀',
  '-1',
  '1e400',
];

function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value) ?? 'null');
}

/** Lone surrogates cannot be percent-encoded: they travel as U+FFFD, as a browser would send them. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function encodeSegment(value: unknown): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));
}

/** The path with its parameters filled from `values` (already encoded). */
function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => values[name] ?? 'missing');
}

/**
 * Requests for one operation: from its schemas (valid and near-valid bodies, parameters, query strings) and
 * around them (wrong types, huge and deeply nested JSON, invalid UTF-8 and JSON, bogus cursors, oversized
 * headers, random path ids, bad Idempotency-Key and If-Match values).
 */
export function requestArbitrary(
  operation: FuzzOperation,
  components: SchemaComponents,
  known: KnownIds,
  credentials: Record<string, string>,
): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const pathValue = (parameter: FuzzOperation['parameters'][number]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(known[parameter.name] ?? ['000000'])).map(encodeSegment) },
      { weight: 2, arbitrary: validValue(parameter.schema, components).map(encodeSegment) },
    );
  const paths = fc.record(
    Object.fromEntries(pathParameters.map((parameter) => [parameter.name, pathValue(parameter)])),
  );
  const randomPaths = fc.record(
    Object.fromEntries(
      pathParameters.map((parameter) => [
        parameter.name,
        fc.oneof(
          fc.constantFrom(...RANDOM_IDS),
          fc.string({ minLength: 1, maxLength: 80 }).map(encodeSegment),
          nearValue(parameter.schema, components).map(encodeSegment),
        ),
      ]),
    ),
  );
  const query = fc
    .tuple(
      ...queryParameters.map((parameter) =>
        fc.option(
          fc.oneof(
            { weight: 3, arbitrary: validValue(parameter.schema, components) },
            { weight: 1, arbitrary: nearValue(parameter.schema, components) },
          ),
          { freq: 2 },
        ),
      ),
    )
    .map((values) => {
      const search = new URLSearchParams();
      values.forEach((value, index) => {
        const parameter = queryParameters[index];
        if (parameter === undefined || value === null) return;
        for (const item of Array.isArray(value) ? value : [value])
          search.append(parameter.name, typeof item === 'string' ? item : JSON.stringify(item));
      });
      const text = search.toString();
      return text.length === 0 ? '' : `?${text}`;
    });
  const hasBody = operation.body !== undefined;
  const classes: FuzzClass[] = ['schema-valid', 'near-schema', 'oversized header'];
  if (hasBody || operation.method !== 'get')
    classes.push(
      'nul characters',
      'wrong-type body',
      'huge string',
      'deep nesting',
      'invalid utf-8',
      'invalid json',
      'wrong content-type',
    );
  if (queryParameters.some((parameter) => parameter.name === 'cursor')) classes.push('bogus cursor');
  if (pathParameters.length > 0) classes.push('random path id');
  if (operation.method === 'post') classes.push('bad idempotency key');
  if (['patch', 'put', 'delete'].includes(operation.method)) classes.push('bad if-match');

  const json = { 'content-type': 'application/json' };
  const validBody = hasBody
    ? validValue(operation.body ?? {}, components).map(jsonBytes)
    : fc.constant(undefined);
  const nearBody = hasBody
    ? nearValue(operation.body ?? {}, components).map(jsonBytes)
    : fc.constant(undefined);
  const bodyOf = (
    fuzzClass: FuzzClass,
  ): fc.Arbitrary<{ body: Buffer | undefined; headers: Record<string, string> }> => {
    switch (fuzzClass) {
      case 'schema-valid':
        return validBody.map((body) => ({ body, headers: body === undefined ? {} : json }));
      case 'nul characters':
        // Every string of a valid body ends in U+0000, which JSON carries as an escape.
        return validBody.map((body) => ({
          body:
            body === undefined
              ? Buffer.from('{"name":"\\u0000"}')
              : Buffer.from(
                  JSON.stringify(
                    JSON.parse(body.toString(), (_key, value: unknown) =>
                      typeof value === 'string' ? `${value}\u0000` : value,
                    ),
                  ),
                ),
          headers: json,
        }));
      case 'near-schema':
        return nearBody.map((body) => ({ body, headers: body === undefined ? {} : json }));
      case 'wrong-type body':
        return fc.jsonValue({ maxDepth: 3 }).map((value) => ({ body: jsonBytes(value), headers: json }));
      case 'huge string':
        return fc.constantFrom(10_000, 200_000, 2_000_000).map((size) => ({
          body: jsonBytes({ name: 'x'.repeat(size), note: 'y'.repeat(size) }),
          headers: json,
        }));
      case 'deep nesting':
        return fc
          .constantFrom(100, 1_000, 10_000)
          .map((depth) => ({ body: Buffer.from(deeplyNested(depth)), headers: json }));
      case 'invalid utf-8':
        return fc.constantFrom(...INVALID_UTF8).map((bytes) => ({
          body: Buffer.concat([
            Buffer.from('{"name":"'),
            bytes,
            Buffer.from('","email":"'),
            bytes,
            Buffer.from('"}'),
          ]),
          headers: json,
        }));
      case 'invalid json':
        return fc.constantFrom(...INVALID_JSON).map((text) => ({ body: Buffer.from(text), headers: json }));
      case 'wrong content-type':
        return fc
          .constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=latin1',
            'application/xml',
          )
          .chain((type) =>
            validBody.map((body) => ({
              body: body ?? Buffer.from('name=x'),
              headers: { 'content-type': type },
            })),
          );
      default:
        return validBody.map((body) => ({ body, headers: body === undefined ? {} : json }));
    }
  };
  const extraHeaders = (fuzzClass: FuzzClass): fc.Arbitrary<Record<string, string>> => {
    switch (fuzzClass) {
      case 'oversized header':
        return fc.constantFrom<Record<string, string>>(
          { 'x-fuzz': 'a'.repeat(20_000) },
          { cookie: `svc_session=${'b'.repeat(9_000)}; other=${'c'.repeat(9_000)}` },
          { authorization: `Bearer svc_${'d'.repeat(8_000)}` },
          { 'x-forwarded-for': Array.from({ length: 500 }, () => '203.0.113.9').join(', ') },
        );
      case 'bad idempotency key':
        return fc
          .constantFrom('', ' ', 'k'.repeat(256), 'caf\u00e9', 'tab\there', 'ok-key-1', 'ok-key-1')
          .map((key) => ({ 'idempotency-key': key }));
      case 'bad if-match':
        return fc
          .constantFrom('', '*', 'W/"1"', '"abc"', '1', '"-1"', '"999999999999999999999"', '"1", "2"')
          .map((value) => ({ 'if-match': value }));
      default:
        return fc.constant({});
    }
  };
  // Requests from the schemas weigh three times the others: they get past parsing into the handlers.
  const weighted = classes.map((fuzzClass) => ({
    weight: fuzzClass === 'schema-valid' || fuzzClass === 'near-schema' ? 3 : 1,
    arbitrary: fc.constant(fuzzClass),
  }));
  return fc.oneof(...weighted).chain((fuzzClass) =>
    fc
      .record({
        pathValues: fuzzClass === 'random path id' ? randomPaths : paths,
        query:
          fuzzClass === 'bogus cursor'
            ? fc.constantFrom(...BOGUS_CURSORS).map((cursor) => `?cursor=${encodeURIComponent(cursor)}`)
            : query,
        payload: bodyOf(fuzzClass),
        extra: extraHeaders(fuzzClass),
      })
      .map(({ pathValues, query: search, payload, extra }) => ({
        operation,
        fuzzClass,
        path: `${fillPath(operation.path, pathValues)}${search}`,
        headers: { ...credentials, ...payload.headers, ...extra },
        body: payload.body,
      })),
  );
}
