import type { Request, RequestHandler, Response } from 'express';

type HeaderChange = [name: string, value: string | number | readonly string[] | undefined];

/**
 * The headers a middleware sets on every answer whatever the request (helmet with fixed
 * directives), recorded once at start and then set by a plain loop: helmet's chain of twelve
 * middlewares, and its CSP directives walked again, cost more per request than the headers
 * themselves (ADR 0510). A middleware that reads the request, answers, or does anything but set
 * or remove headers and call next synchronously is refused here, at start.
 */
export function staticHeaders(middleware: RequestHandler): RequestHandler {
  const changes: HeaderChange[] = [];
  let nexted = false;
  const refuse = (what: string) => {
    throw new Error(`staticHeaders: the middleware ${what}; its headers cannot be set once for every request`);
  };
  const req = new Proxy({} as Request, { get: (_t, key) => refuse(`read the request (${String(key)})`) });
  const res = new Proxy({} as Response, {
    get: (_t, key) => {
      if (key === 'setHeader')
        return (name: string, value: string | number | readonly string[]) => void changes.push([name, value]);
      if (key === 'removeHeader') return (name: string) => void changes.push([name, undefined]);
      return refuse(`used the response's ${String(key)}`);
    },
  });
  middleware(req, res, (error?: unknown) => {
    if (error) refuse(`failed (${String(error)})`);
    nexted = true;
  });
  if (!nexted) refuse('did not call next synchronously');
  return (_req, response, next) => {
    for (const [name, value] of changes) {
      if (value === undefined) response.removeHeader(name);
      else response.setHeader(name, value);
    }
    next();
  };
}
