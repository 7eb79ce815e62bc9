import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { embeddedReturnOrigins } from './embedded-origins.js';

describe('the embedded default’s own origins', () => {
  it('are the loopback names of its port and the http(s) origins of CORS_ORIGINS, nothing else', () => {
    assert.deepEqual(embeddedReturnOrigins(8080), [
      'http://localhost:8080',
      'http://127.0.0.1:8080',
      'http://[::1]:8080',
    ]);
    assert.deepEqual(
      embeddedReturnOrigins(3000, ['https://shop.example/', 'http://localhost:3000', '*', 'ftp://files.example']),
      ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'https://shop.example'],
    );
  });
});
