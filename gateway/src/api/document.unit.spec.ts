// The document made from the declarations is valid OpenAPI 3.1, and says what the server
// enforces: each operation lists the statuses it can answer, with an example for each refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { apiDocument } from '../routes/index.js';
import { buildOpenApiDocument } from './document.js';
import { route } from './route.js';

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
      for (const [method, op] of Object.entries(
        item as Record<
          string,
          {
            requestBody?: unknown;
            security?: unknown[];
            responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
          }
        >,
      )) {
        const statuses = Object.keys(op.responses);
        if (op.requestBody)
          for (const s of ['400', '413', '415']) assert.ok(statuses.includes(s), `${method} ${path} lists ${s}`);
        if (op.security?.some((r) => Object.keys(r as object).includes('bearer')))
          assert.ok(statuses.includes('401') || path === '/auth/supabase', `${method} ${path} lists 401`);
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400)
            assert.ok(response.content?.['application/json']?.example, `${method} ${path} ${status} has an example`);
        }
      }
    }
  });

  it('says what sign-up and sign-in enforce: an e-mail address, password lengths in characters', () => {
    const body = (path: string, type = 'application/json') =>
      (
        document.paths![path]!.post!.requestBody as {
          content: Record<
            string,
            { schema: { properties: Record<string, Record<string, unknown>>; required: string[] } }
          >;
        }
      ).content[type]!.schema;
    const register = body('/auth/register');
    assert.deepEqual(register.required, ['email', 'password']);
    assert.equal(register.properties.email!.format, 'email');
    assert.deepEqual([register.properties.password!.minLength, register.properties.password!.maxLength], [8, 256]);
    const admin = body('/admin/login', 'application/x-www-form-urlencoded');
    assert.deepEqual([admin.properties.password!.minLength, admin.properties.password!.maxLength], [1, 256]);
    assert.equal(body('/auth/google').properties.idToken!.minLength, 1);
  });

  it('answers "not configured" as 501, never 503, for the sign-in providers; 503 only for Google\'s real outage', () => {
    for (const path of ['/auth/google', '/auth/supabase']) {
      const responses = document.paths![path]!.post!.responses! as Record<string, { description: string }>;
      assert.match(responses['501']!.description, /not configured/, path);
    }
    const google = document.paths!['/auth/google']!.post!.responses! as Record<string, { description: string }>;
    assert.match(google['503']!.description, /certificates could not be fetched: a real outage/);
    // Supabase tokens are checked with a local secret: no outage to document.
    assert.equal((document.paths!['/auth/supabase']!.post!.responses! as Record<string, unknown>)['503'], undefined);
    for (const [path, item] of Object.entries(document.paths ?? {}))
      for (const [method, op] of Object.entries(
        item as Record<string, { responses: Record<string, { description?: string }> }>,
      ))
        for (const status of ['503', '504'])
          assert.doesNotMatch(
            op.responses[status]?.description ?? '',
            /not configured/i,
            `${method} ${path} ${status}`,
          );
  });

  it('states the 501 and 503/504 rule and the admin 401/403 rule', () => {
    const rules = document.info.description ?? '';
    assert.match(rules, /501 \(NOT_CONFIGURED\)/);
    assert.match(rules, /503 \(UNAVAILABLE\) and 504 \(DEADLINE_EXCEEDED\) mean a real outage/);
    assert.match(
      rules,
      /On \/admin\/\* \(except \/admin\/login\) and \/settings\/\*, 401 and 403 mean only "admin authentication required"/,
    );
  });

  it('gives every admin operation 401 and 403 for the guard, and 409 (never 401/403) for business refusals', () => {
    // No admin operation is declared yet (the admin areas come with their issues): a sample one
    // shows what any such declaration gets.
    const sample = route({
      method: 'delete',
      path: '/admin/users/:id',
      tags: ['admin'],
      access: 'admin',
      summary: 'A sample admin operation',
      request: { params: z.object({ id: z.string() }) },
      responses: { 204: { description: 'Deleted' } },
      handle() {},
    });
    const op = buildOpenApiDocument([sample]).paths!['/admin/users/{id}']!.delete!;
    const responses = op.responses as Record<string, { description: string }>;
    assert.deepEqual(op.security, [{ bearer: [] }]);
    assert.match(responses['401']!.description, /Not authenticated/);
    assert.match(responses['403']!.description, /Admin authentication required/);
    assert.match(responses['409']!.description, /never 401\/403/);
  });
});
