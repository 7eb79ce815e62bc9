import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { type BatchAnswer, type BatchRow, fileShares, rowFromStatus, rowsFromAnswer } from './batch';

const row = (key: string): BatchRow => ({ key, name: `${key}.jpg`, size: 100, phase: 'uploading', percent: 0 });

describe('batch upload', () => {
  it('gives each file the bytes of its own part: the first fills before the second moves', () => {
    // Three files of 100, 300 and 100 bytes in a body of 1000 (part headers and all).
    assert.deepEqual(fileShares([100, 300, 100], 0, 1000), [0, 0, 0]);
    assert.deepEqual(fileShares([100, 300, 100], 200, 1000), [100, 0, 0]);
    assert.deepEqual(fileShares([100, 300, 100], 500, 1000), [100, 50, 0]);
    assert.deepEqual(fileShares([100, 300, 100], 900, 1000), [100, 100, 50]);
    assert.deepEqual(fileShares([100, 300, 100], 1000, 1000), [100, 100, 100]);
    assert.deepEqual(fileShares([100], 0, 0), [0]);
  });

  it('turns the answer into one processing row per file, in the order sent', () => {
    const answer = {
      success: true,
      images: [{ image_id: 'a1' }, { image_id: 'b2' }],
      tokensUsed: 200,
      newBalance: 0,
    } as unknown as BatchAnswer;
    const rows = rowsFromAnswer([row('a'), row('b'), row('c')], answer);
    assert.deepEqual(
      rows.map((r) => [r.key, r.phase, 'imageId' in r ? r.imageId : '']),
      [
        ['a', 'processing', 'a1'],
        ['b', 'processing', 'b2'],
        ['c', 'failed', ''],
      ],
    );
  });

  it('shows each result when its status completes: ready, locked with its preview, or failed with the reason', () => {
    const processing = { key: 'a', name: 'a.jpg', size: 1, phase: 'processing' as const, imageId: 'a1' };
    const status = (s: object) => ({ id: 'a1', image_id: 'a1', status: 'processing', is_locked: false, ...s }) as never;
    assert.equal(rowFromStatus(processing, status({})), null);
    assert.deepEqual(rowFromStatus(processing, status({ status: 'completed', processed_url: '/r.png' })), {
      key: 'a',
      name: 'a.jpg',
      size: 1,
      phase: 'done',
      imageId: 'a1',
      resultUrl: '/r.png',
    });
    assert.equal(
      rowFromStatus(processing, status({ status: 'completed', is_locked: true, preview_url: '/p.png' }))?.phase,
      'locked',
    );
    const failed = rowFromStatus(processing, status({ status: 'failed', error: 'No product found' }));
    assert.equal(failed?.phase === 'failed' && failed.message, 'No product found');
  });
});
