import type { RequestHandler } from 'express';

/**
 * Middlewares that run on every request, one after the other as a single layer of Express's
 * router: each layer costs a path match, a call wrapped for errors and promises, and a `next`
 * of its own on every request, which for the few cheap middlewares in front of every route
 * cost more than the middlewares themselves (ADR 0510). An error passed to a middleware's
 * `next` ends the sequence and goes on to Express; so does a throw (Express catches it).
 */
export function inSequence(...handlers: RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0]!;
  return (req, res, next) => {
    let i = 0;
    const step = (error?: unknown) => {
      if (error !== undefined && error !== null && error !== false) return next(error);
      const handler = handlers[i++];
      if (!handler) return next();
      handler(req, res, step);
    };
    step();
  };
}
