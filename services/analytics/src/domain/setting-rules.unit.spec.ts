import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { decideSave, keyStatus, maskSecret, settingDefinitions, type StoredSetting } from './setting-rules.js';

const defs = settingDefinitions('openai');
const at = (s: string) => new Date(`2026-01-01T${s}Z`);

describe('operator settings', () => {
  it('names the keys after the provider, in the page order; only the provider key is secret', () => {
    assert.deepEqual(
      defs.map((d) => [d.key, d.secret, d.service]),
      [
        ['openai_api_key', true, 'openai'],
        ['stripe_public_key', false, 'stripe'],
        ['stripe_lite_price_id', false, 'stripe'],
        ['stripe_pro_price_id', false, 'stripe'],
        ['stripe_studio_price_id', false, 'stripe'],
        ['stripe_agency_price_id', false, 'stripe'],
      ],
    );
  });

  it('masks a secret to its last 4 characters, and a short one entirely', () => {
    assert.equal(maskSecret('sk-abcdefghijkl1234'), '****1234');
    assert.equal(maskSecret('short'), '****');
  });

  it('keeps a masked value, clears an empty one, sets a new one', () => {
    const stored = new Map<string, StoredSetting>([
      ['openai_api_key', { value: 'sk-abcdefghijkl1234', updatedAt: at('10:00:00') }],
      ['stripe_lite_price_id', { value: 'price_1', updatedAt: at('10:00:00') }],
    ]);
    assert.deepEqual(
      decideSave(defs, stored, {
        openai_api_key: '****1234',
        stripe_lite_price_id: '',
        stripe_pro_price_id: 'price_2',
      }),
      {
        changes: [
          { key: 'stripe_lite_price_id', action: 'cleared' },
          { key: 'stripe_pro_price_id', action: 'set', value: 'price_2' },
        ],
        unchanged: ['openai_api_key'],
      },
    );
  });

  it('refuses unknown keys, stale masks and malformed values, all at once', () => {
    const stored = new Map<string, StoredSetting>([
      ['openai_api_key', { value: 'sk-abcdefghijkl1234', updatedAt: at('10:00:00') }],
    ]);
    const r = decideSave(defs, stored, { nope: 'x', openai_api_key: '****9999', stripe_public_key: 'sk_x' });
    assert.ok('refused' in r);
    assert.equal(r.refused.unknown.length, 1);
    assert.equal(r.refused.stale.length, 1);
    assert.deepEqual(r.refused.invalid, ['stripe_public_key must start with pk_test_ or pk_live_']);
  });

  it('status: inactive unset, unknown untested since the change, then what the newest test said', () => {
    const s = { value: 'x', updatedAt: at('10:00:00') };
    assert.equal(keyStatus(undefined, undefined), 'inactive');
    assert.equal(keyStatus(s, undefined), 'unknown');
    assert.equal(keyStatus(s, { ok: true, testedAt: at('09:00:00') }), 'unknown');
    assert.equal(keyStatus(s, { ok: true, testedAt: at('11:00:00') }), 'active');
    assert.equal(keyStatus(s, { ok: false, testedAt: at('11:00:00') }), 'invalid');
    assert.equal(keyStatus({ ...s, unreadable: true }, { ok: true, testedAt: at('11:00:00') }), 'invalid');
  });
});
