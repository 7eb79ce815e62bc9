import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { initialJsBudget } from './build/initial-js-budget';
import { precompress } from './build/precompress';
import { showcaseImages } from './build/showcase-images';

export default defineConfig({
  plugins: [react(), showcaseImages(), initialJsBudget(), precompress()],
  server: { proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' } },
  // No modulepreload polyfill: every browser the app supports preloads modules itself (ADR 0715).
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } },
});
