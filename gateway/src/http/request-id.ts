import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Every request has an id, taken from the caller when it is sane, and echoed back. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  next();
};
