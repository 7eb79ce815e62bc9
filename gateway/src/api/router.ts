// Mounts declared operations on an Express router. Per operation, in this order: the body's
// Content-Type (415) and declared size (413, before anything is read), parsing within that
// limit, the caller's access (401/403), attempt limits (429), validation (400), the handler.
// Every other method on a declared path answers 405 with Allow.
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { AppError } from '@flatlay/platform';
import type { BlobStore } from '@flatlay/files';
import { discardUploads, fileTooLarge, multipartReader } from '../files/uploads.js';
import type { GuestTryLimit } from '../http/guest-limits.js';
import { type Authenticator, NO_TOKEN } from '../http/auth.js';
import { apiNotFoundAt, errorBody, GatewayAuthRefusal } from '../http/errors.js';
import type { AuthRateLimit } from '../http/rate-limit.js';
import { responsesOf } from './responses.js';
import type { ApiRoute, BodySpec } from './route.js';
import { compileValidator, hasBody, tooLarge, wrongMediaType } from './validate.js';

export interface MountOptions {
  auth: Authenticator;
  limit: AuthRateLimit;
  /**
   * Check every answer against its declared schema (tests and development only: it costs a
   * parse per answer). A mismatch becomes a 500 that names it, so a test sees it at once.
   */
  checkResponses: boolean;
  /** Where multipart operations store their files (required once one is declared). */
  blobs?: BlobStore;
  /** The limits of a guest's tries (required once an operation declares `guestTry`). */
  guestTries?: GuestTryLimit;
}

const bearerSent = (req: Request) => /^Bearer\s+\S+$/i.test(req.headers.authorization ?? '');

function accessCheck(r: ApiRoute, auth: Authenticator): RequestHandler | undefined {
  switch (r.access) {
    case 'user':
      return auth.requireUser;
    case 'admin':
      return auth.requireAdmin;
    case 'optional':
      return auth.optionalUser;
    case 'session':
      // The handler decides what the token means; here only that one was sent.
      return (req, res, next) => {
        if (bearerSent(req)) return next();
        res.setHeader('WWW-Authenticate', 'Bearer');
        next(new GatewayAuthRefusal('UNAUTHENTICATED', NO_TOKEN));
      };
    default:
      return undefined;
  }
}

function bodyReader(spec: BodySpec, blobs: BlobStore | undefined): RequestHandler[] {
  const checkType: RequestHandler = (req, _res, next) => {
    if (!hasBody(req)) return next();
    if (req.is(spec.type) === false)
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', wrongMediaType(spec.type, req.headers['content-type'])));
    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length > spec.limit)
      return next(
        new AppError(
          'PAYLOAD_TOO_LARGE',
          spec.upload?.maxFiles === 1 ? fileTooLarge(spec.upload.maxFileBytes) : tooLarge(spec.limit),
        ),
      );
    next();
  };
  // The parsers stop reading once a chunked body passes the limit (body-parser's 'entity.too.large').
  const tooBig = (error: unknown, _req: Request, _res: Response, next: NextFunction) =>
    next(
      (error as { type?: string }).type === 'entity.too.large'
        ? new AppError('PAYLOAD_TOO_LARGE', tooLarge(spec.limit))
        : error,
    );
  switch (spec.type) {
    case 'application/json':
      if (spec.raw)
        return [
          checkType,
          express.raw({ limit: spec.limit, type: spec.type }),
          tooBig as unknown as RequestHandler,
          keepRawBody,
        ];
      return [checkType, express.json({ limit: spec.limit, type: spec.type }), tooBig as unknown as RequestHandler];
    case 'application/x-www-form-urlencoded':
      return [
        checkType,
        express.urlencoded({ extended: false, limit: spec.limit, type: spec.type }),
        tooBig as unknown as RequestHandler,
      ];
    case 'multipart/form-data':
      if (!spec.upload || !blobs)
        throw new Error('A multipart body needs its upload part declared and a blob store to stream it to');
      return [checkType, multipartReader(spec.upload, blobs)];
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The body's exact bytes, on operations that declare `raw` (a signature covers them). */
    rawBody?: Buffer;
  }
}

/** Keeps the bytes and parses them as JSON for validation (an unreadable body is a 400). */
const keepRawBody: RequestHandler = (req, _res, next) => {
  if (!Buffer.isBuffer(req.body)) return next();
  req.rawBody = req.body;
  try {
    req.body = req.rawBody.length ? JSON.parse(req.rawBody.toString('utf8')) : {};
  } catch {
    return next(new AppError('INVALID_ARGUMENT', 'The request body is not valid JSON'));
  }
  next();
};

/** In tests and development: the answer must be one the document declares, in its declared shape. */
function responseCheck(r: ApiRoute): RequestHandler {
  const responses = responsesOf(r);
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const spec = responses[status];
      // 5xx are outages or bugs, reported as such; they are not part of an operation's contract.
      if (status >= 500) return json(body);
      const problem = !spec
        ? `status ${status} is not declared`
        : spec.schema
          ? spec.schema
              .safeParse(body)
              .error?.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
              .join('; ')
          : undefined;
      if (!problem) return json(body);
      res.status(500);
      return json(
        errorBody(
          new AppError(
            'INTERNAL',
            `The answer of ${r.method.toUpperCase()} ${r.path} does not match the document: ${problem}`,
          ),
        ),
      );
    };
    next();
  };
}

/**
 * For the app, in front of the /api router: a request to an /api path that no operation can
 * match is answered there and then, with the router's CORS headers (`cors`) and its 404
 * (`apiNotFoundAt`), instead of entering the router to try every operation and 405 catch-all
 * against it. Such a path's first segment below /api starts no operation's path and no area in
 * `areas` (prefixes mounted on the router, such as the admin guard's). Paths are compared as
 * Express compares them: without regard to case, percent-encoding as sent; /api itself is the
 * router's `/`. Preflights (OPTIONS) go on to the router's CORS. Undefined when an operation's
 * path starts with a parameter (any path might match it).
 */
export function unknownApiPaths(routes: ApiRoute[], areas: string[], cors: RequestHandler): RequestHandler | undefined {
  const firstSegment = (path: string) => {
    const end = path.indexOf('/', 1);
    return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
  };
  const known = new Set(areas.map(firstSegment));
  for (const r of routes) {
    const first = firstSegment(r.path);
    if (/[:*{(]/.test(first)) return undefined;
    known.add(first);
  }
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const path = req.path;
    // Where Express's `app.use('/api', router)` takes it: /api, or /api/ and more, in any case.
    if (path.length < 4 || (path.length > 4 && path[4] !== '/') || path.slice(0, 4).toLowerCase() !== '/api')
      return next();
    const below = path.length === 4 ? '/' : path.slice(4);
    if (known.has(firstSegment(below))) return next();
    cors(req, res, (error?: unknown) => (error ? next(error) : apiNotFoundAt(req, res, below)));
  };
}

/** Mounts every operation with its full path, then a 405 with Allow for other methods on each path. */
export function mountRoutes(router: Router, routes: ApiRoute[], options: MountOptions): void {
  const methodsByPath = new Map<string, string[]>();
  for (const r of routes) {
    const chain: RequestHandler[] = [];
    if (options.checkResponses) chain.push(responseCheck(r));
    const body = r.request.body ? bodyReader(r.request.body, options.blobs) : [];
    // A multipart body is stored as it is read: the caller's access is checked first (after the
    // type and declared size), so a refused caller never gets a byte stored.
    const multipart = r.request.body?.type === 'multipart/form-data';
    if (!multipart) chain.push(...body);
    else chain.push(body[0]!);
    const access = accessCheck(r, options.auth);
    if (access) chain.push(access);
    if (r.rateLimit) chain.push(options.limit(r.rateLimit.action, r.rateLimit.emailOf ?? (() => undefined)));
    // A guest's try: the client's limits before a byte is read, its e-mail address's as soon as
    // the address is read (before the file when it comes first; else right after the body).
    const guest = r.guestTry ? options.guestTries : undefined;
    if (r.guestTry && !guest) throw new Error(`${r.method} ${r.path} is a guest's try: the router needs guestTries`);
    if (guest) chain.push(guest.beforeBody);
    if (multipart) chain.push(...body.slice(1));
    if (guest)
      chain.push(async (req, _res, next) => {
        try {
          await guest.afterBody(req);
          next();
        } catch (error) {
          if (req.pendingUploads?.size && options.blobs) await discardUploads(req, options.blobs);
          next(error);
        }
      });
    const validate = compileValidator(r);
    chain.push(async (req, res, next) => {
      try {
        const input = validate(req);
        req.body = input.body;
        await r.handle(req, res, input);
      } catch (error) {
        if (req.pendingUploads?.size && options.blobs) await discardUploads(req, options.blobs);
        return next(error);
      }
      // Uploads the handler did not keep (keepUpload) are not referred to by anything.
      if (req.pendingUploads?.size && options.blobs) await discardUploads(req, options.blobs);
    });
    router[r.method](r.path, ...chain);
    const methods = methodsByPath.get(r.path) ?? [];
    methods.push(r.method.toUpperCase());
    methodsByPath.set(r.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    // Express answers HEAD with the GET handler.
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
    router.all(path, (req, res) => {
      res.setHeader('Allow', allow);
      res.status(405).json({
        ...errorBody(
          new AppError('INVALID_ARGUMENT', `${req.method} is not allowed on ${req.baseUrl}${req.path}; use ${allow}`),
        ),
        code: 'METHOD_NOT_ALLOWED',
      });
    });
  }
}
