import type { AnyRoute } from './route-definition.js';

/**
 * One area's route table, contributed to the container: every binding of this token is served and described
 * in the OpenAPI document (theia's contributions, `getAll(RouteTable)`), in the order the bindings were made.
 */
export const RouteTable = Symbol.for('svc.RouteTable');
export type RouteTable = readonly AnyRoute[];
