// Debian's Chromium as the tests and benchmarks drive it (INFRA.md, "Browsers"): no sandbox (root
// in CI), no GPU, and none of the background traffic (updates, sync, QUIC) that has no network here.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
