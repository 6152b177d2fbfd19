import type { CallerIp, Capabilities, Meta, PopList } from '@svc/domain';
import type { Transport } from '../transport.js';

/** Deployment facts and public catalogues (spec 4.12); no credential needed. */
export class MetaResource {
  constructor(private readonly transport: Transport) {}

  /** GET /v1/meta. */
  async get(): Promise<Meta> {
    return (await this.transport.send<Meta>({ method: 'GET', path: '/v1/meta' })).data;
  }

  /** GET /v1/capabilities. */
  async capabilities(): Promise<Capabilities> {
    return (await this.transport.send<Capabilities>({ method: 'GET', path: '/v1/capabilities' })).data;
  }

  /** GET /v1/pops: the PoP catalogue sorted by id. */
  async pops(): Promise<PopList> {
    return (await this.transport.send<PopList>({ method: 'GET', path: '/v1/pops' })).data;
  }

  /** GET /v1/ip: the caller's address as the API sees it. */
  async ip(): Promise<CallerIp> {
    return (await this.transport.send<CallerIp>({ method: 'GET', path: '/v1/ip' })).data;
  }

  /** GET /v1/openapi.yaml: the OpenAPI document as YAML text. */
  async openApiYaml(): Promise<string> {
    return (
      await this.transport.send<string>({
        method: 'GET',
        path: '/v1/openapi.yaml',
        headers: { accept: 'application/yaml, application/problem+json' },
        responseType: 'text',
      })
    ).data;
  }
}
