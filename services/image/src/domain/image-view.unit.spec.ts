import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { anonymousView, imageView, type ImageRecord } from './image-view.js';
import { pageRequest, pagination } from './pagination.js';
import { checkUpload } from './uploads.js';

const sign = (key: string) => `signed:${key}`;
const image = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  imageId: 'i1',
  userId: 'u1',
  status: 'completed',
  isLocked: false,
  originalKey: 'uploads/a',
  resultKey: 'images/i1/result.jpg',
  previewKey: 'images/i1/preview.jpg',
  createdAt: new Date(0),
  enhancementType: 'tops',
  ...over,
});

describe('image view', () => {
  it('hands out the full result of an unlocked image', () => {
    const v = imageView(image(), sign);
    assert.equal(v.processedUrl, 'signed:images/i1/result.jpg');
    assert.equal(v.imageUrl, v.processedUrl);
  });

  it('never hands out the full result of a locked image, only its preview', () => {
    const v = imageView(image({ isLocked: true }), sign);
    assert.equal(v.processedUrl, '');
    assert.equal(v.previewUrl, 'signed:images/i1/preview.jpg');
    assert.equal(v.imageUrl, v.previewUrl);
  });

  it('shows nothing but the original while processing', () => {
    const v = imageView(image({ status: 'processing', resultKey: null, previewKey: null }), sign);
    assert.deepEqual([v.processedUrl, v.previewUrl, v.imageUrl], ['', '', '']);
    assert.equal(v.originalUrl, 'signed:uploads/a');
  });

  it('calls a ready guest result pending payment until it is paid', () => {
    assert.equal(anonymousView(image({ isLocked: true }), sign).status, 'pending_payment');
    const paid = anonymousView(image(), sign);
    assert.deepEqual([paid.status, paid.isPaid], ['completed', true]);
    assert.equal(anonymousView(image({ status: 'failed', isLocked: true }), sign).status, 'failed');
  });
});

describe('pages and uploads', () => {
  it('pages newest-first lists with the facts the gallery needs', () => {
    assert.deepEqual(pageRequest(0, 0), { page: 1, limit: 12, offset: 0 });
    assert.equal(pageRequest(1, 51), undefined);
    assert.equal(pageRequest(-1, 10), undefined);
    assert.deepEqual(pagination({ page: 2, limit: 12, offset: 12 }, 25), {
      page: 2,
      totalPages: 3,
      hasPrev: true,
      hasNext: true,
      total: 25,
      limit: 12,
    });
    assert.equal(pagination({ page: 1, limit: 12, offset: 0 }, 0).totalPages, 1);
  });

  it('accepts photos under uploads/ of the stated formats up to 10 MB', () => {
    assert.deepEqual(checkUpload('uploads/x', 'image/jpeg', 1000), { ok: true });
    assert.equal((checkUpload('images/x/result.jpg', 'image/jpeg', 1) as { code: string }).code, 'INVALID_ARGUMENT');
    assert.equal((checkUpload('uploads/x', 'image/gif', 1) as { code: string }).code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(
      (checkUpload('uploads/x', 'image/png', 11 * 1024 * 1024) as { code: string }).code,
      'PAYLOAD_TOO_LARGE',
    );
  });
});
