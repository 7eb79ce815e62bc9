import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { goEnv } from './go-env.mjs';

describe('the environment of the Go builds', () => {
  const before = process.env.PATH;
  afterEach(() => {
    process.env.PATH = before;
  });

  it('see a Go toolchain put on PATH after the module was loaded (installGo on a machine with no Go)', () => {
    const toolchain = path.join('/cache', 'go1.26.8', 'bin');
    process.env.PATH = `${toolchain}${path.delimiter}${before ?? ''}`;
    assert.equal(goEnv().PATH?.split(path.delimiter)[0], toolchain);
    assert.equal(goEnv().GOFLAGS, '-mod=mod');
  });
});
