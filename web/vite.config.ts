import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './build/precompress';
import { prerender } from './build/prerender';

/**
 * Prints what a first visit to / downloads: the entry chunk and the home page chunk, each with
 * the chunks they import statically, gzipped. The budget is 150 KB.
 */
function reportInitialJs(): Plugin {
  return {
    name: 'flatlay-initial-js',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        for (const dep of byName.get(fileName)?.imports ?? []) visit(dep);
      };
      for (const c of chunks) if (c.isEntry || c.facadeModuleId?.endsWith('/src/pages/HomePage.tsx')) visit(c.fileName);
      const bytes = [...seen].reduce((sum, f) => sum + gzipSync(byName.get(f)?.code ?? '').length, 0);
      const kb = (bytes / 1024).toFixed(1);
      this.info(`initial JS of / (entry + home page, gzipped): ${kb} KB in ${seen.size} files (budget 150 KB)`);
    },
  };
}

export default defineConfig({
  plugins: [react(), reportInitialJs(), precompress(), prerender()],
  server: { proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' } },
  build: { outDir: 'dist', emptyOutDir: true },
});
