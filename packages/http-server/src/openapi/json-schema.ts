import { z } from 'zod';

/** A JSON Schema (OpenAPI 3.1) node. */
export type JsonSchema = { [keyword: string]: unknown };

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/** True for a JSON object (a schema node), as read from generated or parsed schemas. */
export function isNode(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * zod's JSON Schema of `schema` in one of its two forms: `input`, what a client may send (a field with a
 * default is optional and shows its `default`), or `output`, what the server answers (that field is always
 * there, so required). Tidied for reading: a string with a `format` keeps the format without zod's long
 * regular expression for it, an integer drops the bounds that only say "safe integer", and an output object
 * that zod does not declare strict does not promise `additionalProperties: false` (new fields may appear).
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (typeof jsonSchema.format === 'string') delete jsonSchema.pattern;
      if (jsonSchema.type === 'integer') {
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      }
      const def = zodSchema._zod.def;
      if (io === 'output' && def.type === 'object' && def.catchall === undefined)
        delete jsonSchema.additionalProperties;
    },
  });
}

/** Every `$ref` under `node` rewritten by `rewrite`. */
function mapRefs(node: unknown, rewrite: (ref: string) => unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => mapRefs(item, rewrite));
  if (!isNode(node)) return node;
  if (typeof node.$ref === 'string') {
    const { $ref, ...siblings } = node;
    const target = rewrite($ref);
    const rest = mapRefs(siblings, rewrite);
    // A reference with keywords of its own (a description at the place of use) keeps them beside it.
    return isNode(rest) && Object.keys(rest).length > 0 && isNode(target) ? { ...target, ...rest } : target;
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, mapRefs(value, rewrite)]));
}

/**
 * A request's schema in input form, with every named schema written out in place. Generated clients treat
 * a `default` under `components/schemas` as "always present" (openapi-typescript's defaultNonNullable), which
 * is the output form: the input form therefore never goes there.
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  const { $defs, $schema: _dialect, ...root } = jsonSchemaOf(schema, 'input');
  const definitions = isNode($defs) ? $defs : {};
  const inline = (node: unknown, path: readonly string[]): unknown =>
    mapRefs(node, (ref) => {
      const name = ref.startsWith(DEFS) ? ref.slice(DEFS.length) : undefined;
      const target = name === undefined ? undefined : definitions[name];
      if (name === undefined || target === undefined) throw new Error(`unresolved ${ref} in an input schema`);
      if (path.includes(name)) throw new Error(`input schema ${[...path, name].join(' > ')} is recursive`);
      return inline(target, [...path, name]);
    });
  const written = inline(root, []);
  if (!isNode(written)) throw new Error('an input schema is not an object');
  return written;
}

/**
 * Output-form schemas collected into `components.schemas`: each schema with a zod `id` is one component, and a
 * response refers to it by `$ref`, so that it reads as one named type in generated clients.
 */
export class OutputSchemas {
  private readonly components = new Map<string, string>();
  private readonly schemas: Record<string, JsonSchema> = {};

  /** `schema` in output form; its named parts (and itself, when named) become components. */
  add(schema: z.ZodType): JsonSchema {
    const { $defs, $schema: _dialect, ...root } = jsonSchemaOf(schema, 'output');
    const toComponent = (ref: string) => {
      if (!ref.startsWith(DEFS) || ref.slice(DEFS.length).startsWith('__'))
        throw new Error(`${ref}: a recursive output schema needs a zod id`);
      return { $ref: `${COMPONENTS}${ref.slice(DEFS.length)}` };
    };
    for (const [name, definition] of Object.entries(isNode($defs) ? $defs : {})) {
      const component = mapRefs(definition, toComponent);
      if (!isNode(component)) throw new Error(`component ${name} is not an object`);
      const text = JSON.stringify(component);
      const known = this.components.get(name);
      if (known !== undefined && known !== text)
        throw new Error(`two different schemas carry the zod id ${name}`);
      this.components.set(name, text);
      this.schemas[name] = component;
    }
    const written = mapRefs(root, toComponent);
    if (!isNode(written)) throw new Error('an output schema is not an object');
    return written;
  }

  /** The components, by name in alphabetical order (a stable document to compare with its snapshot). */
  all(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}
