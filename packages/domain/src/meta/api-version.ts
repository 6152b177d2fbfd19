/** Version of the OpenAPI document (spec 9.4); sent as X-Svc-Api-Version on every response. */
export const API_VERSION = '0.6.2';
