// The document made from the declarations is valid OpenAPI 3.1, and says what the server
// enforces: each operation lists the statuses it can answer, with an example for each refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { apiDocument } from '../routes/index.js';

describe('the OpenAPI document', () => {
  const document = apiDocument();

  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator['validate']>[0]);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('lists, for each operation, the refusals its declaration implies, each with an example', () => {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(item as Record<string, { requestBody?: unknown; security?: unknown[]; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>)) {
        const statuses = Object.keys(op.responses);
        if (op.requestBody) for (const s of ['400', '413', '415']) assert.ok(statuses.includes(s), `${method} ${path} lists ${s}`);
        if (op.security?.some((r) => Object.keys(r as object).includes('bearer'))) assert.ok(statuses.includes('401') || path === '/auth/supabase', `${method} ${path} lists 401`);
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400) assert.ok(response.content?.['application/json']?.example, `${method} ${path} ${status} has an example`);
        }
      }
    }
  });

  it('says what sign-up and sign-in enforce: an e-mail address, password lengths in characters', () => {
    const body = (path: string, type = 'application/json') =>
      (document.paths![path]!.post!.requestBody as { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>>; required: string[] } }> }).content[type]!.schema;
    const register = body('/auth/register');
    assert.deepEqual(register.required, ['email', 'password']);
    assert.equal(register.properties.email!.format, 'email');
    assert.deepEqual([register.properties.password!.minLength, register.properties.password!.maxLength], [8, 256]);
    const admin = body('/admin/login', 'application/x-www-form-urlencoded');
    assert.deepEqual([admin.properties.password!.minLength, admin.properties.password!.maxLength], [1, 256]);
    assert.equal(body('/auth/google').properties.idToken!.minLength, 1);
  });

  it('answers "not configured" as 501, never 503, for the sign-in providers', () => {
    for (const path of ['/auth/google', '/auth/supabase']) {
      const statuses = Object.keys(document.paths![path]!.post!.responses!);
      assert.ok(statuses.includes('501'), path);
      assert.ok(!statuses.includes('503'), path);
    }
  });
});
