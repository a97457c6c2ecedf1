import { createServer, IncomingMessage, ServerResponse, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

type ResponseConstructor = (this: ServerResponse, req: IncomingMessage, options?: object) => void;

/**
 * The HTTP server of an Express app, whose request and response objects are born with the app's
 * prototypes. Express gives each request and response the app's prototypes as they enter it
 * (`Object.setPrototypeOf`, left alone when the prototype is already the app's). An object whose
 * prototype changes after it was built loses the shape V8 optimised its code for, and reading or
 * setting its properties afterwards (`req.next`, `req.baseUrl`, `res.locals`, every header set)
 * was about half of what the service's stack cost per request (bench/README.md, "The stack's
 * cost"). The objects are still Node's own: the constructors are Node's, only the prototype
 * chain starts one step earlier, at the one Express would have set.
 */
export function createExpressServer(app: Express, options: ServerOptions = {}): Server {
  function Request(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, req: IncomingMessage, responseOptions?: object): void {
    (ServerResponse as unknown as ResponseConstructor).call(this, req, responseOptions);
  }
  Response.prototype = app.response;
  return createServer({
    ...options,
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  }, app);
}
