import type { Express, Response } from 'express';

/**
 * `res.json` for this app, writing the answer itself where Express's `json` and `send` would only
 * arrive at the same headers and bytes the long way round (settings looked up, the Content-Type
 * built and parsed again for its charset, the freshness of the request checked, the body measured
 * a second time): Content-Type `application/json; charset=utf-8`, Content-Length, the body. Every
 * other case goes to Express's own (see `writesDirectly`), as does a body JSON cannot write
 * (undefined).
 */
export function fastJson(app: Express): void {
  const express = app.response.json;
  app.response.json = function json(this: Response, body: unknown) {
    if (!writesDirectly(this)) return express.call(this, body);
    const text = JSON.stringify(body);
    if (text === undefined) return express.call(this, body);
    return writeJson(this, text);
  };
}

/** An answer already serialised as JSON (the same headers as `res.json`). */
export function sendJsonText(res: Response, text: string): Response {
  if (writesDirectly(res)) return writeJson(res, text);
  res.set('Content-Type', 'application/json');
  return res.send(text);
}

/**
 * Whether Express would add nothing to the plain answer: not for a HEAD request, a status
 * without a body (204, 205, 304), a Content-Type, ETag, Last-Modified or Transfer-Encoding
 * already set, conditional request headers (If-None-Match: * is fresh even without an ETag),
 * or an app setting that changes the answer (an ETag function, JSON replacer, spaces, escaping).
 */
function writesDirectly(res: Response): boolean {
  const req = res.req;
  const status = res.statusCode;
  const settings = res.app.settings as Record<string, unknown>;
  return !(
    req.method === 'HEAD' ||
    status === 204 ||
    status === 205 ||
    status === 304 ||
    req.headers['if-none-match'] !== undefined ||
    req.headers['if-modified-since'] !== undefined ||
    settings['etag fn'] ||
    settings['json replacer'] ||
    settings['json spaces'] ||
    settings['json escape'] ||
    res.getHeader('Content-Type') !== undefined ||
    res.getHeader('ETag') !== undefined ||
    res.getHeader('Last-Modified') !== undefined ||
    res.getHeader('Transfer-Encoding') !== undefined
  );
}

function writeJson(res: Response, text: string): Response {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.end(text, 'utf8');
  return res;
}
