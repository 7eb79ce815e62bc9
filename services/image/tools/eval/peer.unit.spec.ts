import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'vitest';
import { alphaOf, PEER_PACKAGE, PEER_VERSION, peerDir, peerManifest, rgbaSize } from './peer.js';

describe('eval peer', () => {
  it('installs outside the clone, in a cache folder per version', () => {
    assert.equal(
      peerDir(PEER_VERSION, '/home/x'),
      path.join('/home/x', '.cache', 'flatlay', 'eval-peer', PEER_VERSION),
    );
    assert.equal(peerDir('9.9.9', '/home/x'), path.join('/home/x', '.cache', 'flatlay', 'eval-peer', '9.9.9'));
  });

  it("pins the peer and overrides its old sharp and onnxruntime-node to the project's versions", () => {
    const m = peerManifest({ sharp: '0.35.5', onnxruntime: '1.30.0' });
    assert.deepEqual(m.dependencies, { [PEER_PACKAGE]: PEER_VERSION });
    assert.deepEqual(m.overrides, { sharp: '0.35.5', 'onnxruntime-node': '1.30.0' });
    assert.equal(m.private, true);
  });

  it("reads the size from the peer's raw RGBA type, and refuses any other answer", () => {
    assert.deepEqual(rgbaSize('image/x-rgba8;width=1280;height=960'), { width: 1280, height: 960 });
    assert.throws(() => rgbaSize('image/png'), /not image\/x-rgba8/);
    assert.throws(() => rgbaSize('image/x-rgba8;width=0;height=960'), /not image\/x-rgba8/);
  });

  it('takes the alpha channel as the mask', () => {
    const rgba = new Uint8Array([1, 2, 3, 0, 4, 5, 6, 128, 7, 8, 9, 255]);
    assert.deepEqual(alphaOf(rgba, 3, 1), { data: new Uint8Array([0, 128, 255]), width: 3, height: 1 });
    assert.throws(() => alphaOf(rgba, 2, 2), /not 2 x 2 RGBA/);
  });
});
