// The document says exactly what the server accepts (issue 32, item 7): the values the API fuzzer
// found refused although the document allowed them are now refused by the operation's schema (400
// with its message, before any service is called) and excluded by the document's constraint.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import type { Request } from 'express';
import { serviceClients } from '../clients.js';
import { apiRoutes } from '../routes/index.js';
import { GOOGLE_TOKEN_MALFORMED } from '@flatlay/platform';
import { INSTRUCTION_MAX_LENGTH } from '../routes/images.js';
import { INVALID_PLAN, PRODUCT_NOT_AVAILABLE } from '../routes/payments-checkout.js';
import { compileValidator } from './validate.js';

const { routes, document } = apiRoutes(serviceClients([]), createLogger('accepts-test', 'silent'));

type Property = { type?: string; format?: string; minLength?: number; pattern?: string; items?: Property };
type BodySchema = { properties: Record<string, Property>; required?: string[] };

function bodySchemaOf(path: string, type = 'application/json'): BodySchema {
  const op = (
    document.paths![path] as Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>
  ).post!;
  return op.requestBody.content[type]!.schema as BodySchema;
}

/** Whether the document's string constraints admit the value (the keywords these fields use). */
function documentAdmits(p: Property, value: string): boolean {
  if (p.minLength !== undefined && [...value].length < p.minLength) return false;
  if (p.pattern !== undefined && !new RegExp(p.pattern, 'u').test(value)) return false;
  return true;
}

/** The 400 message the operation's validation answers for this body, or null when it passes. */
function refusalOf(path: string, body: unknown): string | null {
  const r = routes.find((x) => x.method === 'post' && x.path === path)!;
  const validate = compileValidator(r);
  try {
    validate({ body, params: {}, query: {}, headers: {} } as unknown as Request);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the document and the validation agree', () => {
  it('an empty price_id or plan is refused by both checkout calls, and the document says minLength 1', () => {
    for (const path of ['/payments/create-checkout-session', '/checkout/session']) {
      assert.equal(refusalOf(path, { price_id: '', product_type: 'payment' }), PRODUCT_NOT_AVAILABLE, path);
      assert.equal(refusalOf(path, { price_id: 'price_main_pack', product_type: 'payment' }), null, path);
      const priceId = bodySchemaOf(path).properties.price_id!;
      assert.equal(documentAdmits(priceId, ''), false, path);
      assert.equal(documentAdmits(priceId, 'price_main_pack'), true, path);
    }
    // The field is named, as for a plan over 64 characters.
    assert.equal(refusalOf('/checkout/session', { type: 'subscription', plan: '' }), `plan: ${INVALID_PLAN}`);
    assert.equal(refusalOf('/checkout/session', { type: 'subscription', plan: 'studio_monthly' }), null);
    assert.equal(documentAdmits(bodySchemaOf('/checkout/session').properties.plan!, ''), false);
    // The pack checkout names its price: without one there is nothing to buy.
    assert.equal(refusalOf('/payments/create-checkout-session', { product_type: 'payment' }), PRODUCT_NOT_AVAILABLE);
    assert.deepEqual(bodySchemaOf('/payments/create-checkout-session').required, ['price_id']);
  });

  it('every upload call documents its file parts as at least one byte (the reader refuses an empty file)', () => {
    const files = [
      bodySchemaOf('/images/generate', 'multipart/form-data').properties.file!,
      bodySchemaOf('/images/anonymous/generate', 'multipart/form-data').properties.file!,
      bodySchemaOf('/images/batch', 'multipart/form-data').properties.files!.items!,
    ];
    for (const file of files) assert.deepEqual([file.format, file.minLength], ['binary', 1]);
  });

  it('an advanced-prompting instruction over 300 characters is refused (400) before the image service, as documented', () => {
    const file = { key: 'uploads/x', contentType: 'image/jpeg', size: 10, filename: 'x.jpg' };
    const generate = (instruction?: string) =>
      refusalOf('/images/generate', {
        file,
        enhancement_type: 'tops',
        ...(instruction === undefined ? {} : { instruction }),
      });
    assert.equal(generate(), null);
    assert.equal(generate('x'.repeat(300)), null);
    assert.equal(generate('x'.repeat(301)), `instruction must be at most ${INSTRUCTION_MAX_LENGTH} characters`);
    const documented = bodySchemaOf('/images/generate', 'multipart/form-data').properties.instruction as Property & {
      maxLength?: number;
    };
    assert.equal(documented.maxLength, INSTRUCTION_MAX_LENGTH);
  });

  it('Google sign-in refuses a token that is not a JWT (400, before any call), and the document says its shape', () => {
    const idToken = bodySchemaOf('/auth/google').properties.idToken!;
    for (const token of ['not-a-jwt', 'a.b', 'a..c', 'a.b.c.d', 'eyJ.eyJ.sig ', 'a.b.c\n']) {
      assert.equal(refusalOf('/auth/google', { idToken: token }), GOOGLE_TOKEN_MALFORMED, JSON.stringify(token));
      assert.equal(documentAdmits(idToken, token), false, JSON.stringify(token));
    }
    const shaped = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    assert.equal(refusalOf('/auth/google', { idToken: shaped }), null);
    assert.equal(documentAdmits(idToken, shaped), true);
  });
});
