// One /api operation, declared once as data: who may call it, what it accepts (with limits),
// what it answers for each status, and the handler. The Express router, request validation,
// error answers and the OpenAPI document are all made from these declarations.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { UploadSpec } from '../files/uploads.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation:
 * - none: anyone; a bearer token is not looked at.
 * - optional: anyone; a valid bearer token identifies the caller.
 * - user / admin: a valid access token of ours (admin: with the admin role).
 * - session: a bearer token must be sent; the handler itself decides what it means (logout
 *   revokes the token as presented, so an already revoked one is fine).
 * - supabase: the bearer token is a Supabase access token, verified by the identity service.
 */
export type Access = 'none' | 'optional' | 'user' | 'admin' | 'session' | 'supabase';

/** Attempt limits of sign-in and sign-up: per client IP and per e-mail address (when the body has one). */
export interface RateLimitClass {
  action: string;
  emailOf?: (body: Record<string, unknown>) => unknown;
}

export type BodyMediaType = 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';

export interface BodySpec<S extends z.ZodType = z.ZodType> {
  type: BodyMediaType;
  schema: S;
  /** Largest body accepted, in bytes; a larger one is refused (413) before it is read. */
  limit: number;
  /** Whether a request may come without a body at all. */
  optional?: boolean;
  /**
   * multipart/form-data only: the part that carries files, streamed to the blob store as it
   * arrives (the handler gets them stored; see gateway/src/files/uploads.ts).
   */
  upload?: UploadSpec;
  /**
   * application/json only: the handler also needs the exact bytes sent (a signature covers them,
   * as on payment webhooks). The body is still validated against `schema`; the bytes are in
   * `req.rawBody`.
   */
  raw?: boolean;
}

export interface ResponseSpec {
  description: string;
  /** The body (JSON unless `mediaType` says otherwise); absent for an answer without one. */
  schema?: z.ZodType;
  /** Another media type than application/json (e.g. text/event-stream); the router does not check it. */
  mediaType?: string;
  example?: unknown;
  /** Response headers, one property each (`.meta({ description })` says what they mean). */
  headers?: z.ZodObject;
}

type Shape = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RequestSpec<P extends Shape | undefined, Q extends Shape | undefined, B extends BodySpec | undefined> {
  params?: P;
  query?: Q;
  body?: B;
}

/** What the handler gets: the request's parts, validated and typed. */
export interface Input<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: B extends BodySpec<infer S> ? z.output<S> : Record<string, never>;
}

/**
 * What a handler may send with `res.json`: a body of one of the operation's declared answers (the
 * router's response check validates the status too, in tests and development). So a key renamed
 * in an answer's schema fails the build where a handler still writes the old one.
 */
export type DeclaredBody<R> = {
  [K in keyof R]: R[K] extends { schema: infer S extends z.ZodType } ? z.input<S> : never;
}[keyof R];

export type Responses = Record<number, ResponseSpec>;

export interface RouteSpec<
  P extends Shape | undefined,
  Q extends Shape | undefined,
  B extends BodySpec | undefined,
  R extends Responses = Responses,
> {
  method: Method;
  /** Path under /api in Express syntax (`/images/:id`); the document writes `{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  rateLimit?: RateLimitClass;
  /**
   * The operation charges or credits: it takes an `Idempotency-Key` header (as Stripe's API does),
   * and a request repeated with the same key charges or credits once (ADR 0104).
   */
  idempotencyKey?: true;
  /** A guest's try: limited per client IP, per e-mail address and by unfinished tries (http/guest-limits.ts). */
  guestTry?: boolean;
  request?: RequestSpec<P, Q, B>;
  /** Every status the operation can answer besides those the router adds (see `standardResponses`). */
  responses: R;
  handle(req: Request, res: Response<DeclaredBody<R>>, input: Input<P, Q, B>): Promise<void> | void;
}

/** A declared operation with its types erased, as the router and the document read it. */
export interface ApiRoute {
  method: Method;
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  rateLimit?: RateLimitClass;
  idempotencyKey?: true;
  guestTry?: boolean;
  request: { params?: Shape; query?: Shape; body?: BodySpec };
  responses: Record<number, ResponseSpec>;
  handle(req: Request, res: Response, input: { params: unknown; query: unknown; body: unknown }): Promise<void> | void;
}

/** Declares one operation; the handler's input is typed from the request schemas, its JSON from the answers'. */
export function route<
  P extends Shape | undefined = undefined,
  Q extends Shape | undefined = undefined,
  B extends BodySpec | undefined = undefined,
  R extends Responses = Responses,
>(spec: RouteSpec<P, Q, B, R>): ApiRoute {
  return { ...spec, request: (spec.request ?? {}) as ApiRoute['request'], handle: spec.handle as ApiRoute['handle'] };
}

/** "METHOD /path" as the document writes it (`/images/{id}`). */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
export const operationKey = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`;
