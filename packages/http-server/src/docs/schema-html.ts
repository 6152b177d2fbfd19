import { anchorOf, escapeHtml, proseHtml } from './html-text.js';

/** A JSON Schema (OpenAPI 3.1) node as read from the document: any object, read field by field. */
type SchemaNode = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/** Nesting shown inline; deeper objects are summarised (named schemas are links, never expanded). */
const MAX_DEPTH = 4;

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nodesOf(value: unknown): SchemaNode[] {
  return Array.isArray(value) ? value.filter(isNode) : [];
}

function refLink(ref: string): string {
  const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
  return `<a href="#${anchorOf('schema', name)}">${escapeHtml(name)}</a>`;
}

function literal(value: unknown): string {
  return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
}

/** A one-line type: `string (date-time)`, `array of Profile`, `"a" | "b"`, `integer ≥ 1`… */
export function typeLabel(schema: SchemaNode): string {
  if (typeof schema.$ref === 'string') return refLink(schema.$ref);
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const options = nodesOf(schema[combinator]);
    if (options.length > 0) return options.map(typeLabel).join(' | ');
  }
  const all = nodesOf(schema.allOf);
  if (all.length > 0) return all.map(typeLabel).join(' &amp; ');
  const types = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type ?? 'any')];
  const labels = types.map((type) => {
    if (type === 'array') return `array of ${isNode(schema.items) ? typeLabel(schema.items) : 'any'}`;
    return escapeHtml(type);
  });
  const format = typeof schema.format === 'string' ? ` (${escapeHtml(schema.format)})` : '';
  return `${labels.join(' | ')}${format}${constraintsOf(schema)}`;
}

function constraintsOf(schema: SchemaNode): string {
  const notes: string[] = [];
  if (typeof schema.minimum === 'number') notes.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === 'number') notes.push(`≤ ${schema.maximum}`);
  if (typeof schema.minLength === 'number') notes.push(`min length ${schema.minLength}`);
  if (typeof schema.maxLength === 'number') notes.push(`max length ${schema.maxLength}`);
  if (typeof schema.maxItems === 'number') notes.push(`at most ${schema.maxItems} items`);
  if (typeof schema.pattern === 'string') notes.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if ('default' in schema) notes.push(`default ${literal(schema.default)}`);
  return notes.length === 0 ? '' : ` <span class="note">${notes.join(', ')}</span>`;
}

/** The object whose properties a schema lists (itself, an array's items, or the object of a nullable union). */
function objectOf(schema: SchemaNode): SchemaNode | undefined {
  if (isNode(schema.properties)) return schema;
  if (isNode(schema.items) && isNode(schema.items.properties)) return schema.items;
  const options = [...nodesOf(schema.anyOf), ...nodesOf(schema.oneOf)].filter((option) =>
    isNode(option.properties),
  );
  return options.length === 1 ? options[0] : undefined;
}

function examplesOf(schema: SchemaNode): string {
  const examples = Array.isArray(schema.examples)
    ? schema.examples
    : 'example' in schema
      ? [schema.example]
      : [];
  return examples
    .map((example) => `<pre class="example">${escapeHtml(JSON.stringify(example, null, 2))}</pre>`)
    .join('');
}

/** A schema as HTML: its type, description and examples, and its properties as a nested list. */
export function schemaHtml(schema: SchemaNode, depth = 0): string {
  const description = typeof schema.description === 'string' ? proseHtml(schema.description) : '';
  return `<div class="schema"><span class="type">${typeLabel(schema)}</span>${description}${examplesOf(schema)}${propertiesHtml(schema, depth)}</div>`;
}

function propertiesHtml(schema: SchemaNode, depth: number): string {
  const object = objectOf(schema);
  if (object === undefined || !isNode(object.properties)) return '';
  if (depth >= MAX_DEPTH) return '<p class="note">…</p>';
  const required = new Set(Array.isArray(object.required) ? object.required.map(String) : []);
  const items = Object.entries(object.properties)
    .filter((entry): entry is [string, SchemaNode] => isNode(entry[1]))
    .map(([name, property]) => {
      const mark = required.has(name) ? ' <span class="required">required</span>' : '';
      return `<li><code class="name">${escapeHtml(name)}</code>${mark} ${schemaHtml(property, depth + 1)}</li>`;
    });
  return `<ul class="properties">${items.join('')}</ul>`;
}

/** The components.schemas section: one entry per named schema, the target of every reference link. */
export function namedSchemasHtml(schemas: Record<string, unknown>): string {
  return Object.entries(schemas)
    .filter((entry): entry is [string, SchemaNode] => isNode(entry[1]))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([name, schema]) =>
        `<section class="named" id="${anchorOf('schema', name)}"><h3>${escapeHtml(name)}</h3>${schemaHtml(schema)}</section>`,
    )
    .join('');
}
