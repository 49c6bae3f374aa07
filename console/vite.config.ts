import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into dist/ and served by the API under /console/ (docs/console.md): every asset is named by its
// content hash under assets/, which the API caches for a year; index.html is revalidated on every load.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // The client package's source (dependency-free): its run statuses, scopes and event kinds are the
  // console's, so there is no copy here to drift.
  resolve: { alias: { '@svc/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
});
