import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { grpcCodeName, grpcMethodOf, routeTemplate, statusClass } from './labels.js';

describe('metric labels', () => {
  it('gives an HTTP status its class, and anything outside 100-599 `other`', () => {
    assert.equal(statusClass(200), '2xx');
    assert.equal(statusClass(201), '2xx');
    assert.equal(statusClass(304), '3xx');
    assert.equal(statusClass(429), '4xx');
    assert.equal(statusClass(503), '5xx');
    assert.equal(statusClass(99), 'other');
    assert.equal(statusClass(600), 'other');
    assert.equal(statusClass(Number.NaN), 'other');
  });

  it('names gRPC status codes, and an unknown number UNKNOWN', () => {
    assert.equal(grpcCodeName(0), 'OK');
    assert.equal(grpcCodeName(5), 'NOT_FOUND');
    assert.equal(grpcCodeName(16), 'UNAUTHENTICATED');
    assert.equal(grpcCodeName(99), 'UNKNOWN');
  });

  it('splits a gRPC path into its service and method', () => {
    assert.deepEqual(grpcMethodOf('/flatlay.ledger.v1.LedgerService/Spend'), {
      service: 'flatlay.ledger.v1.LedgerService',
      method: 'Spend',
    });
    assert.deepEqual(grpcMethodOf('/grpc.health.v1.Health/Check'), {
      service: 'grpc.health.v1.Health',
      method: 'Check',
    });
  });

  it("labels a request by its route's template under its mount point, never by the path, and none without a route", () => {
    assert.equal(routeTemplate('/api', '/images/:id'), '/api/images/:id');
    assert.equal(routeTemplate('', '/healthz'), '/healthz');
    assert.equal(routeTemplate('/api', undefined), undefined);
    assert.equal(routeTemplate('', /^\/files/), undefined);
  });
});
