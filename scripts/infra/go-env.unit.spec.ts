import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { GO_BUILD_FLAGS, goEnv } from './go-env.mjs';

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

  it('build every tool with -trimpath, as the standard library is compiled once beforehand (warmGoStd)', () => {
    // The compile cache's key includes -trimpath: a tool built without it would compile the
    // standard library again, for itself.
    assert.ok(GO_BUILD_FLAGS.includes('-trimpath'));
  });
});
