// route(): a handler's `res.json` is typed by the operation's declared answers, so a key renamed in
// an answer's schema fails the build where a handler still writes the old one (tsconfig.tests.json
// checks this file; each @ts-expect-error below is itself an error if the line type-checks).
import assert from 'node:assert/strict';
import type { Response } from 'express';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { route } from './route.js';

const answers = {
  200: { description: 'Handled', schema: z.object({ received: z.literal(true), type: z.string() }) },
  409: { description: 'Refused', schema: z.object({ detail: z.string() }) },
};

/** Runs a handler with a response that records what it was given. */
function sent(handle: (res: Response) => void): unknown[] {
  const bodies: unknown[] = [];
  const res = { json: (b: unknown) => bodies.push(b) } as unknown as Response;
  handle(res);
  return bodies;
}

describe('route', () => {
  it("types a handler's JSON by the answers it declares: any one of them, nothing else", () => {
    const declared = route({
      method: 'post',
      path: '/things',
      summary: 'A thing',
      tags: ['meta'],
      access: 'none',
      responses: answers,
      handle(_req, res) {
        res.json({ received: true, type: 'a' });
        res.json({ detail: 'no' });
        // @ts-expect-error `recieved` is not a key of any declared answer
        res.json({ recieved: true, type: 'a' });
        // @ts-expect-error `type` must be a string
        res.json({ received: true, type: 1 });
      },
    });
    const bodies = sent((res) => declared.handle({} as never, res, { params: {}, query: {}, body: {} }));
    assert.equal(bodies.length, 4);
    assert.deepEqual(bodies[0], { received: true, type: 'a' });
  });
});
