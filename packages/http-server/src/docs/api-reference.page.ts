import { createHash } from 'node:crypto';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { anchorOf, escapeHtml, proseHtml } from './html-text.js';
import { namedSchemasHtml, schemaHtml, typeLabel } from './schema-html.js';

type Node = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The page's only style sheet, inline so that the page loads nothing else; allowed by its hash. */
const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2430;display:flex}
nav{width:18rem;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6f9;padding:1rem;box-sizing:border-box;font-size:13px}
nav h2{font-size:13px;text-transform:uppercase;margin:1rem 0 .25rem}nav ul{list-style:none;padding:0;margin:0}
nav a{color:#1d2430;text-decoration:none}main{padding:1rem 2rem;max-width:60rem;min-width:0}
.op{border-top:1px solid #dde2ea;padding:1rem 0}.op h3{font-size:16px;margin:0}
.method{display:inline-block;min-width:4rem;font-weight:700;text-transform:uppercase}
.get{color:#1b6e3a}.post{color:#1f5fbf}.put,.patch{color:#8a5a00}.delete{color:#b3261e}
code{font:13px ui-monospace,monospace;background:#f0f2f5;padding:0 .2rem;border-radius:3px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eceff3;padding:.3rem;text-align:left;vertical-align:top}
.required{color:#b3261e;font-size:12px}.note{color:#5b6575;font-size:13px}.deprecated{color:#b3261e}
ul.properties{margin:.25rem 0;padding-left:1.25rem}.schema p{margin:.2rem 0}
pre.example{background:#f4f6f9;padding:.5rem;overflow:auto;font-size:12px}`;

/**
 * Content-Security-Policy of the page: the API's own (spec 5.6) plus its inline style sheet by hash, so that
 * nothing else can load or run.
 */
export const API_REFERENCE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  operation: Node;
}

function parametersHtml(operation: Node): string {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isNode) : [];
  if (parameters.length === 0) return '';
  const rows = parameters.map((parameter) => {
    const schema = isNode(parameter.schema) ? parameter.schema : {};
    const required = parameter.required === true ? ' <span class="required">required</span>' : '';
    return `<tr><td><code>${escapeHtml(text(parameter.name))}</code>${required}</td><td>${escapeHtml(text(parameter.in))}</td><td>${typeLabel(schema)}</td><td>${proseHtml(text(parameter.description) || text(schema.description))}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr>${rows.join('')}</table>`;
}

function contentHtml(content: unknown): string {
  if (!isNode(content)) return '';
  return Object.entries(content)
    .map(([type, media]) => {
      const schema = isNode(media) && isNode(media.schema) ? schemaHtml(media.schema) : '';
      return `<p class="note">${escapeHtml(type)}</p>${schema}`;
    })
    .join('');
}

function responsesHtml(operation: Node): string {
  const responses = isNode(operation.responses) ? operation.responses : {};
  const items = Object.entries(responses).map(([status, response]) => {
    const answer = isNode(response) ? response : {};
    // Error answers are all the same problem document (linked), so only successes show their schema.
    const body = Number(status) < 400 ? contentHtml(answer.content) : '';
    return `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(text(answer.description))}${body}</li>`;
  });
  return `<h4>Responses</h4><ul>${items.join('')}</ul><p class="note">Errors are <a href="#${anchorOf('schema', 'Problem')}">problem documents</a>.</p>`;
}

function securityOf(operation: Node): string {
  const requirements = Array.isArray(operation.security) ? operation.security.filter(isNode) : [];
  const schemes = requirements.flatMap((requirement) => Object.keys(requirement));
  return schemes.length === 0 ? 'none' : schemes.join(' or ');
}

function operationHtml({ method, path, operation }: Operation): string {
  const id = text(operation.operationId);
  const body = isNode(operation.requestBody)
    ? `<h4>Request body</h4>${contentHtml(operation.requestBody.content)}`
    : '';
  const deprecated = operation.deprecated === true ? ' <span class="deprecated">deprecated</span>' : '';
  return `<section class="op" id="${anchorOf('op', id)}"><h3><span class="method ${method}">${method}</span> <code>${escapeHtml(path)}</code>${deprecated}</h3>
<p>${escapeHtml(text(operation.summary))}</p><p class="note">operationId <code>${escapeHtml(id)}</code> · credentials: ${escapeHtml(securityOf(operation))}</p>
${proseHtml(text(operation.description))}${parametersHtml(operation)}${body}${responsesHtml(operation)}</section>`;
}

/** Operations by tag, in the document's order of paths. */
function operationsByTag(paths: Node): Map<string, Operation[]> {
  const byTag = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(paths)) {
    if (!isNode(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const tags =
        Array.isArray(operation.tags) && operation.tags.length > 0 ? operation.tags.map(String) : ['other'];
      for (const tag of tags) byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return new Map([...byTag].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The API reference as one static HTML page, rendered from the served OpenAPI document: operations grouped
 * by tag with their parameters, request and response schemas and examples, then every named schema. No
 * script and nothing fetched: it reads offline and under the API's strict Content-Security-Policy.
 */
export function renderApiReference(document: OpenApiDocument): string {
  // A plain JSON tree, walked with checks, whatever the generator's types say of optional parts.
  const tree: unknown = JSON.parse(JSON.stringify(document));
  const root = isNode(tree) ? tree : {};
  const info = isNode(root.info) ? root.info : {};
  const components = isNode(root.components) ? root.components : {};
  const byTag = operationsByTag(isNode(root.paths) ? root.paths : {});
  const title = `${text(info.title)} ${text(info.version)}`;
  const nav = [...byTag]
    .map(
      ([tag, operations]) =>
        `<h2>${escapeHtml(tag)}</h2><ul>${operations
          .map(
            ({ method, path, operation }) =>
              `<li><a href="#${anchorOf('op', text(operation.operationId))}"><span class="method ${method}">${method}</span> ${escapeHtml(path)}</a></li>`,
          )
          .join('')}</ul>`,
    )
    .join('');
  const sections = [...byTag]
    .map(
      ([tag, operations]) =>
        `<section id="${anchorOf('tag', tag)}"><h2>${escapeHtml(tag)}</h2>${operations.map(operationHtml).join('\n')}</section>`,
    )
    .join('\n');
  const schemas = isNode(components.schemas) ? namedSchemasHtml(components.schemas) : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} reference</title><style>${STYLE}</style></head>
<body><nav><strong>${escapeHtml(title)}</strong><p><a href="/v1/openapi.yaml">OpenAPI document (YAML)</a></p>${nav}<h2><a href="#schemas">Schemas</a></h2></nav>
<main><h1>${escapeHtml(title)}</h1>${proseHtml(text(info.description))}
${sections}
<section id="schemas"><h2>Schemas</h2>${schemas}</section></main></body></html>
`;
}
