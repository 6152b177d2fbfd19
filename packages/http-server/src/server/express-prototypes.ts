import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** The request and response classes of one HTTP server, and how to give them an express application's prototypes. */
export interface ExpressPrototypes {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
  /** Makes `app`'s request and response prototypes the ones these classes construct. Once, before `app` answers. */
  adopt(app: Express): void;
}

/**
 * Request and response classes whose instances are born with the express application's prototypes. Express 5
 * sets every request's and response's prototype to its own (`Object.setPrototypeOf` in `app.handle`), and V8
 * pays dearly for a prototype changed on a live object: requests survive young-generation collections and
 * full collections follow (docs/adr/0005-express-prototypes.md). Setting the
 * prototype an object already has changes nothing, so with the classes adopted express's swap is a no-op.
 * Per server: the test suites run several servers in one process.
 */
export function expressPrototypes(): ExpressPrototypes {
  class ApiRequest extends IncomingMessage {}
  class ApiResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  return {
    IncomingMessage: ApiRequest,
    ServerResponse: ApiResponse,
    adopt(app) {
      Object.setPrototypeOf(ApiRequest.prototype, app.request);
      Object.setPrototypeOf(ApiResponse.prototype, app.response);
      app.request = ApiRequest.prototype as Express['request'];
      app.response = ApiResponse.prototype as Express['response'];
    },
  };
}
