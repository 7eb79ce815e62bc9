// The answers every operation of a kind can give, so each route declares only its own refusals.
import { z } from 'zod';
import type { ErrorCode } from '@flatlay/platform';
import type { ApiRoute, ResponseSpec } from './route.js';
import { ErrorBody } from './schemas.js';
import { tooLarge, wrongMediaType } from './validate.js';

/** An error answer: the shared body, with an example carrying `message` as a person reads it. */
export function refusal(code: ErrorCode | 'METHOD_NOT_ALLOWED', message: string, description = message): ResponseSpec {
  return { description, schema: ErrorBody, example: { detail: message, message, code } };
}

export const retryAfterHeader = z.object({
  'Retry-After': z.string().regex(/^\d+$/).meta({ description: 'Seconds to wait before trying again' }),
});

/** What the router itself may answer for this operation, before the handler runs. */
export function standardResponses(r: ApiRoute): Record<number, ResponseSpec> {
  const out: Record<number, ResponseSpec> = {};
  const { params, query, body } = r.request;
  if (params || query || body)
    out[400] = refusal(
      'INVALID_ARGUMENT',
      'Please enter a valid email address',
      'The request does not match this operation: the message names the field and the rule',
    );
  if (r.access === 'user' || r.access === 'admin' || r.access === 'session')
    out[401] = {
      ...refusal(
        'UNAUTHENTICATED',
        'Not authenticated: Authentication required',
        'Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists',
      ),
      headers: z.object({
        'WWW-Authenticate': z.literal('Bearer').meta({ description: 'The scheme to authenticate with' }),
      }),
    };
  if (r.access === 'admin')
    out[403] = refusal(
      'PERMISSION_DENIED',
      'Admin authentication required',
      'Admin authentication required (a token without the admin role)',
    );
  // Past the admin guard a downstream UNAUTHENTICATED/PERMISSION_DENIED becomes 409 (statusRuleOf),
  // so the admin app does not drop its token over a business refusal.
  if (r.access === 'admin')
    out[409] = refusal(
      'CONFLICT',
      'Administrator accounts cannot be deleted',
      'The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in',
    );
  if (body) {
    out[413] = refusal('PAYLOAD_TOO_LARGE', tooLarge(body.limit), `The body is larger than ${body.limit} bytes`);
    out[415] = refusal(
      'UNSUPPORTED_MEDIA_TYPE',
      wrongMediaType(body.type, 'text/plain'),
      `The body is not ${body.type}`,
    );
  }
  if (r.rateLimit)
    out[429] = {
      ...refusal(
        'RATE_LIMITED',
        'Too many attempts. Please try again in 60 seconds.',
        'Too many attempts; Retry-After says when to try again',
      ),
      headers: retryAfterHeader,
    };
  if (r.guestTry)
    out[429] = {
      ...refusal(
        'RATE_LIMITED',
        "You've reached the limit of free tries for now. Sign up to get 200 free tokens, or try again in 42 minutes.",
        "Too many of a guest's tries: per client IP or e-mail address in the last hour, or still processing at once; Retry-After says when to try again",
      ),
      headers: retryAfterHeader,
    };
  return out;
}

/** The statuses an operation can answer: the router's, then the route's own (which win). */
export const responsesOf = (r: ApiRoute): Record<number, ResponseSpec> => ({ ...standardResponses(r), ...r.responses });
