// `npm run dashboards:gen`: writes the chart's Grafana dashboards (charts/flatlay/monitoring/dashboards/)
// from their one source, scripts/dashboards/dashboards.ts (Grafana's foundation SDK builders), and
// removes a dashboard file that source no longer makes.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARDS_DIR, renderDashboards } from './dashboards.js';

const boards = renderDashboards();
for (const [file, json] of Object.entries(boards)) {
  const path = join(DASHBOARDS_DIR, file);
  let before = '';
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    // A new dashboard: written below.
  }
  if (before === json) console.log(`${file}: current`);
  else {
    writeFileSync(path, json);
    console.log(`${file}: written`);
  }
}
for (const file of readdirSync(DASHBOARDS_DIR).filter((f) => f.endsWith('.json') && !(f in boards))) {
  rmSync(join(DASHBOARDS_DIR, file));
  console.log(`${file}: removed (no longer in scripts/dashboards/dashboards.ts)`);
}
