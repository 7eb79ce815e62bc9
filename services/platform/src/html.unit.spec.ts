import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { escapeHtml } from './html.js';

describe('escapeHtml', () => {
  it('leaves no markup and no way out of a quoted attribute', () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    assert.equal(escapeHtml('plain text'), 'plain text');
  });
});
