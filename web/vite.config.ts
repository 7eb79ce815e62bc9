import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { initialJsBudget } from './build/initial-js-budget';
import { precompress } from './build/precompress';
import { onCompatWarning, PREACT_COMPAT_ALIASES } from './build/preact-compat';
import { prerender } from './build/prerender';
import { showcaseImages } from './build/showcase-images';

export default defineConfig({
  // The prerendering runs after the client build (ADR 0714), over the files it wrote.
  plugins: [react(), showcaseImages(), initialJsBudget(), precompress(), prerender()],
  // Preact in place of React (ADR 0718).
  resolve: { alias: PREACT_COMPAT_ALIASES },
  server: { proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' } },
  // No modulepreload polyfill: every browser the app supports preloads modules itself (ADR 0715).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    rolldownOptions: { onwarn: onCompatWarning },
  },
});
