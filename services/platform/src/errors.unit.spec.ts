import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { AppError, ErrorCodes, fromServiceError, grpcStatusOf, httpStatusOf, toServiceError } from './errors.js';

describe('error codes', () => {
  it('map once to gRPC and once to HTTP, for every code', () => {
    for (const code of ErrorCodes) {
      assert.equal(typeof grpcStatusOf(code), 'number', code);
      assert.ok(httpStatusOf(code) >= 400 && httpStatusOf(code) < 600, code);
    }
    assert.equal(httpStatusOf('UNAUTHENTICATED'), 401);
    assert.equal(httpStatusOf('INSUFFICIENT_TOKENS'), 402);
    assert.equal(grpcStatusOf('NOT_FOUND'), status.NOT_FOUND);
  });

  it('survive a gRPC round trip with their code, message and details', () => {
    const original = new AppError('INSUFFICIENT_TOKENS', 'Not enough tokens', { balance: 40 });
    const back = fromServiceError(toServiceError(original));
    assert.equal(back.code, 'INSUFFICIENT_TOKENS');
    assert.equal(back.message, 'Not enough tokens');
    assert.deepEqual(back.details, { balance: 40 });
  });

  it('never leak an unexpected error text to the caller', () => {
    const wire = toServiceError(new Error('password=hunter2 in connection string'));
    assert.equal(wire.code, status.INTERNAL);
    assert.equal(wire.details, 'Internal error');
    assert.equal(fromServiceError(wire).code, 'INTERNAL');
  });
});
