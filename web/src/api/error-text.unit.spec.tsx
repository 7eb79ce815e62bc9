import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { errorTextOf } from './error-text';
import { generationErrorText, needsLogin } from './generation-errors';

describe('errorTextOf', () => {
  it('takes detail first, as a string', () => {
    assert.equal(errorTextOf(JSON.stringify({ detail: 'Nope', message: 'other' }), 'Bad Request'), 'Nope');
  });
  it('joins a detail list of loc and msg', () => {
    const body = { detail: [{ loc: ['body', 'email'], msg: 'field required' }, { msg: 'too short' }] };
    assert.equal(errorTextOf(JSON.stringify(body), ''), 'body.email: field required; too short');
  });
  it('falls back to message, then error', () => {
    assert.equal(errorTextOf(JSON.stringify({ message: 'M', error: 'E' }), ''), 'M');
    assert.equal(errorTextOf(JSON.stringify({ error: 'E' }), ''), 'E');
  });
  it('falls back to the body text, then the status text', () => {
    assert.equal(errorTextOf('<html>Bad gateway</html>', 'Bad Gateway'), '<html>Bad gateway</html>');
    assert.equal(errorTextOf('', 'Service Unavailable'), 'Service Unavailable');
    assert.equal(errorTextOf('', '', 500), 'HTTP 500');
  });
});

describe('generation errors', () => {
  it('says a proxy timeout in words', () => {
    const answer = { status: 504, statusText: 'Gateway Timeout', text: '<html>timeout</html>' };
    assert.equal(generationErrorText(answer, 'hero'), 'Server took too long to respond. Please try again in a moment.');
    assert.equal(
      generationErrorText(answer, 'dashboard'),
      'Server took too long to respond. Please try again shortly.',
    );
  });
  it('uses the JSON error, else HTTP {status}: generation failed', () => {
    assert.equal(
      generationErrorText({ status: 402, statusText: '', text: '{"detail":"Insufficient tokens"}' }, 'hero'),
      'Insufficient tokens',
    );
    assert.equal(
      generationErrorText({ status: 500, statusText: '', text: '{}' }, 'hero'),
      'HTTP 500: generation failed',
    );
  });
  it('recognises a login problem', () => {
    assert.equal(needsLogin('Not authenticated: Authentication required'), true);
    assert.equal(needsLogin('whatever', 401), true);
    assert.equal(needsLogin('Generation failed', 500), false);
  });
});
