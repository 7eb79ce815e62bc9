// toApi: a message becomes the body its schema describes, by the schema alone; and a message
// that lacks a field the schema names does not type-check (tsconfig.tests.json checks this file).
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { camelCase, type MessageFor, toApi } from './api-view.js';

const Item = z.object({
  id: z.string(),
  per_image_cost: z.number(),
  createdAt: z.iso.datetime().nullable(),
});

const Body = z.object({
  balance: z.number().int(),
  status: z.enum(['active', 'canceled']).nullable(),
  plan_name: z.string().nullable(),
  is_locked: z.boolean(),
  items: z.array(Item),
  pricing: z.object({ monthly: z.object({ price_id: z.string().nullable() }) }),
});

const at = new Date('2025-01-31T09:30:00.000Z');

describe('toApi', () => {
  it('reads each key under its camelCase name, writes Timestamps as ISO strings, recurses, and drops what the schema does not name', () => {
    const message = {
      balance: 200,
      status: 'active',
      planName: 'Studio',
      isLocked: true,
      items: [
        { id: 'a', perImageCost: 0.5, createdAt: at, userId: 'not in the API' },
        { id: 'b', perImageCost: 1, createdAt: undefined, userId: 'x' },
      ],
      pricing: { monthly: { priceId: 'price_1' } },
      internal: 'not in the API',
    };
    assert.deepEqual(toApi(Body, message), {
      balance: 200,
      status: 'active',
      plan_name: 'Studio',
      is_locked: true,
      items: [
        { id: 'a', per_image_cost: 0.5, createdAt: '2025-01-31T09:30:00.000Z' },
        { id: 'b', per_image_cost: 1, createdAt: null },
      ],
      pricing: { monthly: { price_id: 'price_1' } },
    });
  });

  it("writes a nullable field's proto3 'none' (\"\", absent, an enum value the schema does not name) as null", () => {
    const body = toApi(Body, {
      balance: 0,
      status: 'trialing',
      planName: '',
      isLocked: false,
      items: [],
      pricing: { monthly: { priceId: '' } },
    });
    assert.equal(body.status, null);
    assert.equal(body.plan_name, null);
    assert.equal(body.pricing.monthly.price_id, null);
    assert.equal(toApi(Body, { ...fullMessage(), status: '' }).status, null);
  });

  it('keeps a non-nullable empty string and a zero as they are', () => {
    const S = z.object({ description: z.string(), amount: z.number() });
    assert.deepEqual(toApi(S, { description: '', amount: 0 }), { description: '', amount: 0 });
  });

  it('turns a bigint into a number', () => {
    const S = z.object({ amount: z.number() });
    assert.deepEqual(toApi(S, { amount: 5n }), { amount: 5 });
  });

  it('refuses a message without a nested object the schema needs', () => {
    assert.throws(
      () => toApi(Body, { ...fullMessage(), pricing: undefined as unknown as MessageFor<typeof Body>['pricing'] }),
      /pricing is missing/,
    );
  });

  it('camelCase', () => {
    assert.equal(camelCase('per_image_cost'), 'perImageCost');
    assert.equal(camelCase('createdAt'), 'createdAt');
    assert.equal(camelCase('tokens_per_month'), 'tokensPerMonth');
  });

  it('a message lacking a field the schema names does not type-check', () => {
    const { planName: _gone, ...renamed } = fullMessage();
    // @ts-expect-error plan_name is read as planName, which the message no longer carries
    assert.equal(toApi(Body, renamed).plan_name, null);
    const { perImageCost: _cost, ...item } = fullMessage().items[0]!;
    // @ts-expect-error items[].per_image_cost: the item lacks perImageCost
    toApi(Body, { ...fullMessage(), items: [item] });
    // @ts-expect-error createdAt must be a Date or a string, not a number
    toApi(Item, { id: 'a', perImageCost: 1, createdAt: 5 });
  });
});

function fullMessage() {
  return {
    balance: 1,
    status: 'active',
    planName: 'Lite',
    isLocked: false,
    items: [{ id: 'a', perImageCost: 0.5, createdAt: at }],
    pricing: { monthly: { priceId: 'p' } },
  };
}
