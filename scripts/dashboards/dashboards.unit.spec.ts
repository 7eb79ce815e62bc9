// The committed dashboards are what their one source builds (scripts/dashboards/dashboards.ts, with
// Grafana's foundation SDK): a hand edit of a JSON file, or a source change without
// `npm run dashboards:gen`, fails here.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARDS_DIR, renderDashboards } from './dashboards.js';

describe('the chart’s Grafana dashboards', () => {
  it('are the files npm run dashboards:gen writes, and no others', () => {
    const built = renderDashboards();
    const committed = readdirSync(DASHBOARDS_DIR).filter((f) => f.endsWith('.json'));
    assert.deepEqual(committed.sort(), Object.keys(built).sort());
    for (const [file, json] of Object.entries(built))
      assert.equal(readFileSync(join(DASHBOARDS_DIR, file), 'utf8'), json, `${file}: run npm run dashboards:gen`);
  });

  it('are Grafana dashboards of the SDK’s schema: each panel a time series on the chosen Prometheus', () => {
    for (const [file, json] of Object.entries(renderDashboards())) {
      const d = JSON.parse(json);
      assert.equal(`${d.uid}.json`, file);
      assert.ok(d.schemaVersion >= 39, `${file}: a current dashboard schema (${d.schemaVersion})`);
      assert.deepEqual(
        d.templating.list.map((v: { name: string; type: string }) => `${v.name}:${v.type}`),
        ['datasource:datasource', 'namespace:query'],
      );
      const ids = d.panels.map((p: { id: number }) => p.id);
      assert.equal(new Set(ids).size, ids.length, `${file}: unique panel ids`);
      for (const p of d.panels) {
        assert.equal(p.type, 'timeseries');
        assert.ok(p.fieldConfig.defaults.unit, `${file} ${p.title}: a unit`);
        assert.deepEqual(
          p.targets.map((t: { refId: string }) => t.refId),
          ['A', 'B'].slice(0, p.targets.length),
        );
      }
    }
  });
});
