import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { chooseProviders, sessionKey } from './session.js';

const cpuOnly = [{ name: 'cpu', bundled: true }];
const withCuda = (bundled: boolean) => [...cpuOnly, { name: 'cuda', bundled }];

describe('execution provider choice', () => {
  it('runs on CPU when told to, whatever the build carries', () => {
    assert.deepEqual(chooseProviders('0', withCuda(true)), { providers: ['cpu'] });
  });

  it('takes CUDA when the build carries it or its library is installed, with CPU behind it', () => {
    assert.deepEqual(chooseProviders(undefined, withCuda(true)).providers, ['cuda', 'cpu']);
    assert.deepEqual(chooseProviders('1', withCuda(false), true).providers, ['cuda', 'cpu'], 'asked for, installed');
    assert.deepEqual(chooseProviders(undefined, withCuda(false), true).providers, ['cuda', 'cpu'], 'installed');
    assert.deepEqual(chooseProviders(undefined, withCuda(false)).providers, ['cpu'], 'not installed, not asked: CPU');
  });

  it('does not try a provider whose library is not installed: CPU, with one warning saying what to install', () => {
    const choice = chooseProviders('1', withCuda(false), false);
    assert.deepEqual(choice.providers, ['cpu']);
    assert.match(choice.warning ?? '', /ENGINE_CUDA=1 .* not installed .*cuda-libs\.sh.*running on CPU/);
  });

  it('falls back to CPU with a warning when CUDA is asked for and missing', () => {
    const choice = chooseProviders('1', cpuOnly);
    assert.deepEqual(choice.providers, ['cpu']);
    assert.match(choice.warning ?? '', /ENGINE_CUDA=1 .* no CUDA execution provider: running on CPU/);
    assert.equal(chooseProviders(undefined, cpuOnly).warning, undefined, 'not asked for: nothing to say');
  });
});

describe('which sessions are one', () => {
  const at = (provider: 'cuda' | 'cpu', inputSize: number) =>
    sessionKey({ file: '/m/isnet.onnx', optimization: 'all', threads: 4, provider, inputSize });

  it('shares one CPU session across input sizes', () => {
    assert.equal(at('cpu', 256), at('cpu', 576));
  });

  it('gives each input size its own CUDA session (a shape switch costs seconds there), the same size the same one', () => {
    assert.notEqual(at('cuda', 256), at('cuda', 576));
    assert.equal(at('cuda', 576), at('cuda', 576));
    assert.notEqual(at('cuda', 576), at('cpu', 576));
  });
});
