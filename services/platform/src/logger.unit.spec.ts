import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'vitest';
import { createLogger } from './logger.js';

/** A logger writing into memory, and the lines it wrote. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('redaction-test', 'info', stream), lines };
}

const SECRETS = [
  'pw-top',
  'pw-nested',
  'at-1',
  'at-2',
  'it-1',
  'it-2',
  'rt-1',
  'rt-2',
  'cred-1',
  'auth-1',
  'auth-2',
  'cookie-1',
  'sec-1',
  'pw-array',
  'pw-deep',
  'child-token',
];

describe('logger redaction', () => {
  it('removes passwords, tokens, credentials and authorization headers at any depth, and keeps the rest', () => {
    const { logger, lines } = capture();
    const logged = {
      password: 'pw-top',
      email: 'keep@example.com',
      user: {
        id: 'u-1',
        password: 'pw-nested',
        session: { accessToken: 'at-1', idToken: 'it-1', refreshToken: 'rt-1' },
      },
      google: { response: { id_token: 'it-2', access_token: 'at-2', refresh_token: 'rt-2', credential: 'cred-1' } },
      req: {
        method: 'POST',
        headers: { authorization: 'auth-1', Authorization: 'auth-2', cookie: 'cookie-1', host: 'keep.example' },
      },
      settings: { stripe: { secret: 'sec-1' } },
      attempts: [{ password: 'pw-array', at: 1 }],
      a: { b: { c: { d: { e: { f: { password: 'pw-deep' } } } } } },
      err: new Error('kept message'),
    };
    logger.info(logged, 'sign-in');
    logger.child({ token: 'child-token' }).info('from a child');

    const text = lines.join('');
    for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} is in the log`);
    const [line] = lines.map((l) => JSON.parse(l));
    assert.equal(line.user.password, '[redacted]');
    assert.equal(line.user.session.accessToken, '[redacted]');
    assert.equal(line.google.response.id_token, '[redacted]');
    assert.equal(line.req.headers.Authorization, '[redacted]');
    assert.equal(line.a.b.c.d.e.f.password, '[redacted]');
    // What is not a secret stays readable.
    assert.equal(line.email, 'keep@example.com');
    assert.equal(line.user.id, 'u-1');
    assert.equal(line.req.headers.host, 'keep.example');
    assert.equal(line.attempts[0].at, 1);
    assert.equal(line.err.message, 'kept message');
    // The caller's object is not changed by logging it.
    assert.equal(logged.user.session.accessToken, 'at-1');
    assert.equal(logged.attempts[0]!.password, 'pw-array');
  });
});
