// Browse: a visitor opens the pricing page, as the web app loads it: the page (index.html, which the
// gateway serves for every app path), its entry script, the deployment's config and the catalogue.
// No sign-in. See common.js for the profiles and env.
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE, scenarioOptions, timedSetup, writeSummary } from './common.js';

export const options = scenarioOptions({
  vus: 50,
  latency: ['p(50)<100', 'p(99)<500'],
  smoke: { rate: 2 },
});

/** The entry script index.html names (its file name carries a content hash). */
export const setup = timedSetup(() => {
  const page = http.get(`${BASE}/`);
  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(String(page.body));
  if (page.status !== 200 || !script) fail(`index.html answered ${page.status} without an entry script`);
  return { script: script[1] };
});

const text = { headers: { accept: 'text/html' } };

/** @param {{ script: string }} data setup's answer */
export default function ({ script }) {
  const page = http.get(`${BASE}/pricing`, { ...text, tags: { name: 'GET /pricing (index.html)' } });
  check(page, { 'page: 200 html': (r) => r.status === 200 && String(r.body).includes('<div id="root"') });
  const asset = http.get(`${BASE}${script}`, { tags: { name: 'GET /assets/index-*.js' } });
  check(asset, { 'entry script: 200': (r) => r.status === 200 && r.body.length > 1000 });
  const config = http.get(`${BASE}/api/config`, { tags: { name: 'GET /api/config' } });
  check(config, { 'config: 200': (r) => r.status === 200 });
  const products = http.get(`${BASE}/api/payments/products`, { tags: { name: 'GET /api/payments/products' } });
  check(products, { 'products: 200': (r) => r.status === 200 && String(r.body).length > 2 });
}

/** @param {import('k6/summary').SummaryData} data */
export const handleSummary = (data) => writeSummary(data);
