/**
 * Vite config of the management UI. `npm run build:ui` writes ui/dist, which `npm start` serves at
 * `/` beside `/api` and the CDK stack uploads to the UI bucket; `npm run dev:ui` serves the
 * sources with `/api` proxied to a running service (UI_API_TARGET, default localhost:8080).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const uiDir = new URL('.', import.meta.url).pathname;

export default defineConfig({
  root: uiDir,
  plugins: [react()],
  // Everything is bundled: the UI loads nothing from a CDN at run time.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The main bundle stays small; pages and the JSON editor are split into chunks loaded on demand.
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': { target: process.env.UI_API_TARGET ?? 'http://localhost:8080', changeOrigin: false } },
  },
});
