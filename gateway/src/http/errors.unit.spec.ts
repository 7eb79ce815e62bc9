import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { Request, Response } from 'express';
import { AppError, createLogger } from '@flatlay/platform';
import { type errorBody, errorMapper, GatewayAuthRefusal } from './errors.js';

/** Runs the error mapping on one error and answers the status and body it would send. */
function answer(error: unknown, req: Partial<Request> = {}) {
  const sent: { status?: number; body?: ReturnType<typeof errorBody>; headers: Record<string, string> } = {
    headers: {},
  };
  const res = {
    headersSent: false,
    setHeader: (k: string, v: string) => {
      sent.headers[k.toLowerCase()] = v;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: ReturnType<typeof errorBody>) {
      sent.body = body;
      return this;
    },
  } as unknown as Response;
  errorMapper(createLogger('errors-test', 'silent'))(error, { headers: {}, ...req } as Request, res, () => undefined);
  return sent;
}

describe('error mapping: status rules', () => {
  it('a feature that is not configured answers 501 with its message; only outages answer 503/504', () => {
    const notConfigured = answer(new AppError('NOT_CONFIGURED', 'Google sign-in is not configured on this server'));
    assert.deepEqual(
      [notConfigured.status, notConfigured.body?.code, notConfigured.body?.message],
      [501, 'NOT_CONFIGURED', 'Google sign-in is not configured on this server'],
    );
    assert.equal(answer(new AppError('UNAVAILABLE', 'Service unavailable')).status, 503);
    assert.equal(answer(new AppError('DEADLINE_EXCEEDED', 'The service did not answer in time')).status, 504);
    assert.equal(answer(new Error('a bug')).status, 500);
  });

  it('past the admin guard, a downstream 401/403 is a business refusal: 409 with its message', () => {
    const refused = answer(new AppError('PERMISSION_DENIED', 'Administrator accounts cannot be deleted'), {
      adminVerified: true,
    });
    assert.deepEqual([refused.status, refused.body?.message], [409, 'Administrator accounts cannot be deleted']);
    assert.equal(
      answer(new AppError('UNAUTHENTICATED', 'Not authenticated: no such session'), { adminVerified: true }).status,
      409,
    );
  });

  it("the gateway's own checks keep 401/403, and other routes are unchanged", () => {
    assert.equal(
      answer(new GatewayAuthRefusal('PERMISSION_DENIED', 'Admin authentication required'), { adminVerified: true })
        .status,
      403,
    );
    const noToken = answer(new GatewayAuthRefusal('UNAUTHENTICATED', 'Not authenticated: Authentication required'));
    assert.deepEqual([noToken.status, noToken.headers['www-authenticate']], [401, 'Bearer']);
    assert.equal(
      answer(new AppError('PERMISSION_DENIED', 'Administrator accounts sign in with their password')).status,
      403,
    );
    assert.equal(answer(new AppError('UNAUTHENTICATED', 'Invalid admin credentials')).status, 401);
  });
});
