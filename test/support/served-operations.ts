import { parse } from 'yaml';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Where an operation is served: method and path template of the OpenAPI document. */
export interface OperationRoute {
  method: string;
  template: string;
}

/** One series of `svc_http_requests_total`: requests answered on a route template with a status. */
export interface RequestSeries {
  method: string;
  route: string;
  status: number;
  count: number;
}

/** operationId → route of every operation of an OpenAPI document given as YAML text. */
export function operationRoutes(yamlText: string): Map<string, OperationRoute> {
  const document = parse(yamlText) as { paths?: Record<string, Record<string, { operationId?: unknown }>> };
  const routes = new Map<string, OperationRoute>();
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || typeof operation.operationId !== 'string') continue;
      routes.set(operation.operationId, { method: method.toUpperCase(), template });
    }
  }
  return routes;
}

/** The request count series of a Prometheus text exposition. */
export function requestSeries(exposition: string): RequestSeries[] {
  const series: RequestSeries[] = [];
  for (const line of exposition.split('\n')) {
    const match = /^svc_http_requests_total\{(.*)\} (\S+)$/.exec(line);
    if (match === null) continue;
    const labels = Object.fromEntries(
      [...(match[1] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    series.push({
      method: labels.method ?? '',
      route: labels.route ?? '',
      status: Number(labels.status),
      count: Number(match[2]),
    });
  }
  return series;
}

/** A template with its parameter names left out (`/v1/profiles/{}`), to compare templates named differently. */
function shapeOf(template: string): string {
  return template.replace(/\{[^}]*\}/g, '{}');
}

/**
 * Operations of `ids` whose route never answered with a status below 500, each as `id (METHOD template:
 * statuses seen)`; an id the document does not have is listed as such.
 */
export function operationsNotServed(
  ids: readonly string[],
  routes: ReadonlyMap<string, OperationRoute>,
  series: readonly RequestSeries[],
): string[] {
  const missing: string[] = [];
  for (const id of ids) {
    const route = routes.get(id);
    if (route === undefined) {
      missing.push(`${id} (not in the OpenAPI document)`);
      continue;
    }
    const seen = series.filter(
      (each) => each.method === route.method && shapeOf(each.route) === shapeOf(route.template),
    );
    if (!seen.some((each) => each.status < 500 && each.count > 0)) {
      const statuses = seen.map((each) => `${each.status}×${each.count}`).join(', ') || 'never';
      missing.push(`${id} (${route.method} ${route.template}: ${statuses})`);
    }
  }
  return missing;
}
