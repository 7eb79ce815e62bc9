// Return addresses on the embedded default (issue 26): `npm start` opened at http://127.0.0.1:8080
// while PUBLIC_BASE_URL is http://localhost:8080. Billing, configured as the embedded default
// configures it (RETURN_URL_ORIGINS from its port's loopback names and CORS_ORIGINS), accepts a
// guest's return addresses on those origins and still refuses every other.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AppError, call } from '@flatlay/platform';
import { embeddedReturnOrigins } from '../../../apps/embedded/src/embedded-origins.js';
import { loadBillingConfig } from '../src/config.js';
import { startStack, type Stack } from './support/stack.js';

describe('checkout return addresses on the embedded default', { timeout: 120_000 }, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      withLedger: false,
      billing: {
        env: {
          PUBLIC_BASE_URL: 'http://localhost:8080',
          RETURN_URL_ORIGINS: embeddedReturnOrigins(8080, ['https://shop.example']).join(','),
        },
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const guestPayment = (successUrl: string, cancelUrl = '/') =>
    call(stack.billing, stack.billing.createAnonymousPayment, {
      enhancementId: randomUUID(),
      successUrl,
      cancelUrl,
      email: 'guest@example.com',
      idempotencyKey: '',
    });

  it('accepts a return address on any loopback name of its port or a CORS origin', async () => {
    for (const back of [
      'http://127.0.0.1:8080/?payment=success',
      'http://[::1]:8080/?payment=success',
      'http://localhost:8080/?payment=success',
      'https://shop.example/?payment=success',
    ]) {
      const started = await guestPayment(back, new URL('/', back).toString());
      assert.match(started.checkoutUrl, /^http:\/\/localhost:8080\/checkout\/local\/cs_local_/, back);
    }
  });

  it('refuses one on another host, port or scheme', async () => {
    for (const foreign of [
      'https://evil.example/?payment=success',
      'http://127.0.0.1:9999/?payment=success',
      'http://localhost.evil.example:8080/',
      'https://127.0.0.1:8080/',
    ]) {
      await assert.rejects(
        guestPayment(foreign),
        (e: AppError) => e.code === 'INVALID_ARGUMENT' && e.message === 'success_url must be an address on this site',
        foreign,
      );
    }
    await assert.rejects(
      guestPayment('http://127.0.0.1:8080/', 'https://evil.example/'),
      (e: AppError) => e.message === 'cancel_url must be an address on this site',
    );
  });

  it('refuses to start with a RETURN_URL_ORIGINS entry that is not an http(s) origin', () => {
    assert.throws(() => loadBillingConfig({ RETURN_URL_ORIGINS: 'http://localhost:8080,javascript:alert(1)' }, {}));
    assert.deepEqual(
      loadBillingConfig({ RETURN_URL_ORIGINS: 'http://127.0.0.1:8080/some/path, https://shop.example' }, {})
        .RETURN_URL_ORIGINS,
      ['http://127.0.0.1:8080', 'https://shop.example'],
    );
  });
});
