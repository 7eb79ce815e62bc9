import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { openApiDocument } from './openapi.js';

type Responses = Record<string, { description: string }>;
const operations = () =>
  Object.entries(openApiDocument.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${path}`,
      responses: op.responses as Responses,
    })),
  );

describe('OpenAPI document: status rules', () => {
  it('states the 501 and 503/504 rule and the admin 401/403 rule', () => {
    const rules = openApiDocument['x-status-rules'];
    assert.equal(openApiDocument.info.description.includes(rules), true);
    assert.match(rules, /501 \(NOT_CONFIGURED\)/);
    assert.match(rules, /503 \(UNAVAILABLE\) and 504 \(DEADLINE_EXCEEDED\) mean a real outage/);
    assert.match(rules, /401 and 403 mean only "admin authentication required"/);
  });

  it('documents "not configured" as 501 and never as 503', () => {
    for (const op of ['POST /auth/google', 'POST /auth/supabase']) {
      const responses = operations().find((o) => o.name === op)!.responses;
      assert.match(responses['501']!.description, /not configured/, op);
    }
    for (const { name, responses } of operations()) {
      for (const status of ['503', '504'])
        assert.doesNotMatch(responses[status]?.description ?? '', /not configured/i, `${name} ${status}`);
    }
  });

  it('documents 409 rather than 401/403 for business refusals on admin routes', () => {
    for (const guard of Object.values(openApiDocument['x-guards']))
      assert.match((guard.responses as Responses)['409']!.description, /never 401\/403/);
  });
});
