import fc from 'fast-check';

/** The part of JSON Schema (OpenAPI 3.1) that the served document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

/** Named schemas of the document (`#/components/schemas/<name>`). */
export type SchemaComponents = Record<string, JsonSchema>;

/** How deep generated values nest before the generator stops descending (the schemas are shallow). */
const MAX_DEPTH = 6;

/** Strings that break naive code: NUL, a lone surrogate, control and bidi characters, markup, SQL. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202e\u0000\uffff',
  '\r\n\t',
  "'; DROP TABLE profiles; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00%ff',
  '{{7*7}}',
  'null',
  '0',
  '-1',
  '9'.repeat(400),
  '😀'.repeat(70),
];

function resolve(schema: JsonSchema, components: SchemaComponents): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = components[name];
  if (target === undefined) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(target, components);
}

function patternString(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch (error) {
    // A pattern the generator cannot walk (lookarounds, flags): plain strings are still near it.
    if (error instanceof Error) return fc.string({ maxLength: 40 });
    throw error;
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString());
    case 'email':
      return fc.emailAddress();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'uri':
      return fc.webUrl();
    default:
      break;
  }
  if (schema.pattern !== undefined) return patternString(schema.pattern);
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 40, 40)) });
}

/** Values the schema accepts (as far as a generator can tell: patterns and formats are followed). */
export function validValue(
  schema: JsonSchema,
  components: SchemaComponents,
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, components);
  if (resolved.const !== undefined) return fc.constant(resolved.const);
  if (resolved.enum !== undefined) return fc.constantFrom(...resolved.enum);
  const choices = resolved.anyOf ?? resolved.oneOf;
  if (choices !== undefined)
    return fc.oneof(...choices.map((choice) => validValue(choice, components, depth + 1)));
  if (resolved.allOf !== undefined) {
    const merged = resolved.allOf.map((part) => resolve(part, components));
    return validValue(Object.assign({}, ...merged), components, depth + 1);
  }
  const types = Array.isArray(resolved.type)
    ? resolved.type
    : resolved.type === undefined
      ? []
      : [resolved.type];
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => validValue({ ...resolved, type }, components, depth + 1)));
  }
  if (depth > MAX_DEPTH) return fc.constant(null);
  switch (types[0]) {
    case 'object': {
      const properties = resolved.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        model[name] = validValue(property, components, depth + 1);
      }
      const required = (resolved.required ?? []).filter((name) => name in model);
      return fc.record(model, { requiredKeys: required });
    }
    case 'array': {
      const minLength = resolved.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(resolved.maxItems ?? 4, 4));
      return fc.array(validValue(resolved.items ?? {}, components, depth + 1), { minLength, maxLength });
    }
    case 'string':
      return stringOf(resolved);
    case 'integer':
      return fc.integer({
        min: Math.max(resolved.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(resolved.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: resolved.minimum ?? -1e9,
        max: resolved.maximum ?? 1e9,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Values around the schema: boundary lengths and numbers, nasty strings, wrong types, missing required and
 * unknown extra fields, each mixed with valid values so that one bad field sits among good ones.
 */
export function nearValue(
  schema: JsonSchema,
  components: SchemaComponents,
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, components);
  const valid = validValue(resolved, components, depth);
  const wrongType = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.constant(1.5),
    fc.constant(1e308),
    fc.constant(-(2 ** 63)),
    fc.string({ maxLength: 8 }),
    fc.constant([]),
    fc.constant({}),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const boundaries: fc.Arbitrary<unknown>[] = [fc.constantFrom(...NASTY_STRINGS)];
  if (resolved.maxLength !== undefined) boundaries.push(fc.constant('x'.repeat(resolved.maxLength + 1)));
  if (resolved.minLength !== undefined && resolved.minLength > 0)
    boundaries.push(fc.constant('x'.repeat(resolved.minLength - 1)));
  if (resolved.maximum !== undefined) boundaries.push(fc.constant(resolved.maximum + 1));
  if (resolved.minimum !== undefined) boundaries.push(fc.constant(resolved.minimum - 1));
  if (resolved.maxItems !== undefined)
    boundaries.push(fc.constant(Array.from({ length: resolved.maxItems + 1 }, () => 'a')));
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  if (types.includes('object') && resolved.properties !== undefined && depth <= MAX_DEPTH) {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(resolved.properties)) {
      model[name] = fc.oneof(
        { weight: 3, arbitrary: validValue(property, components, depth + 1) },
        { weight: 1, arbitrary: nearValue(property, components, depth + 1) },
      );
    }
    const mixed = fc
      .tuple(fc.record(model, { requiredKeys: [] }), fc.option(fc.string({ minLength: 1, maxLength: 12 })))
      .map(([record, extra]) => (extra === null ? record : { ...record, [extra]: 'unexpected' }));
    return fc.oneof({ weight: 4, arbitrary: mixed }, { weight: 1, arbitrary: wrongType });
  }
  if (types.includes('array') && depth <= MAX_DEPTH) {
    const items = fc.array(nearValue(resolved.items ?? {}, components, depth + 1), { maxLength: 4 });
    return fc.oneof(items, wrongType, ...boundaries);
  }
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 2, arbitrary: wrongType }, ...boundaries);
}
