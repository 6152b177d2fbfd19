import { renderApiReference } from '../docs/api-reference.page.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import type { AnyRoute } from '../routes/route-definition.js';

/** The OpenAPI generator's module, loaded once on first use. */
const generator = () => import('../openapi/openapi-document.js');

/**
 * The API's description: the OpenAPI document built from the routes served, its YAML form and the HTML
 * reference. Each is written on first use (GET /v1/openapi.yaml, /docs, callers of `openApi`): generating the
 * document from every route's zod schemas costs start-up time and leaves megabytes of garbage behind an idle
 * server's heap, and the generator's module is memory an idle server does not need. The meta route table
 * serves the YAML, and is itself one of the routes described: hence the routes are handed over once every
 * table is built ({@link describe}).
 */
export class ApiDescription {
  private routes: readonly AnyRoute[] | undefined;
  private document: Promise<OpenApiDocument> | undefined;
  private yaml: Promise<string> | undefined;
  private reference: Promise<string> | undefined;

  constructor(private readonly baseUrl: string) {}

  /** The routes the server answers, once all are built. */
  describe(routes: readonly AnyRoute[]): void {
    this.routes = routes;
  }

  openApi(): Promise<OpenApiDocument> {
    const routes = this.routes;
    if (routes === undefined)
      return Promise.reject(new Error('the API is described once its routes are built'));
    this.document ??= generator().then(({ buildOpenApiDocument }) =>
      buildOpenApiDocument(routes, this.baseUrl),
    );
    return this.document;
  }

  openApiYaml(): Promise<string> {
    this.yaml ??= Promise.all([this.openApi(), generator()]).then(([document, { openApiYaml }]) =>
      openApiYaml(document),
    );
    return this.yaml;
  }

  /** The HTML API reference of GET /docs. */
  referenceHtml(): Promise<string> {
    this.reference ??= this.openApi().then(renderApiReference);
    return this.reference;
  }
}
