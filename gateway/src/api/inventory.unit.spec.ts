// The route inventory: under /api, Express serves exactly the operations the document lists;
// outside /api, exactly the table `routesOutsideApi`. A route added without its declaration
// (or a declaration without its route) fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { Router } from 'express';
import { createLogger } from '@flatlay/platform';
import { createGatewayApp } from '../app.js';
import { apiDocument, routesOutsideApi } from '../routes/index.js';
import { documentedOperations } from './document.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** "METHOD path" of every route in a router, into nested routers except `skip`. */
function served(stack: Layer[], skip: unknown): string[] {
  return stack.flatMap((layer) => {
    if (layer.route)
      return Object.keys(layer.route.methods)
        .filter((m) => m !== '_all')
        .map((m) => `${m.toUpperCase()} ${layer.route!.path}`);
    if (layer.handle?.stack && layer.handle !== skip) return served(layer.handle.stack, skip);
    return [];
  });
}

const expressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

describe('route inventory', () => {
  const app = createGatewayApp({
    logger: createLogger('inventory-test', 'silent'),
    corsOrigins: [],
    services: [],
    webDir: undefined,
  });
  const api = app.locals.apiRouter as Router & { stack: Layer[] };

  it('under /api, Express serves exactly the operations the document lists', () => {
    const documented = documentedOperations(apiDocument()).map((op) => {
      const [m, p] = op.split(' ');
      return `${m} ${expressPath(p!)}`;
    });
    assert.deepEqual(served(api.stack, undefined).sort(), documented.sort());
  });

  it('every documented path answers other methods with 405 (a catch-all route per path)', () => {
    const paths = new Set(documentedOperations(apiDocument()).map((op) => expressPath(op.split(' ')[1]!)));
    const catchAll = new Set(
      api.stack.filter((l) => (l as Layer).route?.methods._all).map((l) => (l as Layer).route!.path),
    );
    assert.deepEqual([...catchAll].sort(), [...paths].sort());
  });

  it('outside /api, Express serves exactly the routes of routesOutsideApi', () => {
    const router = (app as unknown as { router: { stack: Layer[] } }).router;
    assert.deepEqual(served(router.stack, api).sort(), routesOutsideApi.map((r) => `${r.method} ${r.path}`).sort());
  });
});
