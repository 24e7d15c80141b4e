import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The server's CSP is `script-src 'self' 'wasm-unsafe-eval'`: nothing here may emit an inline
// script. Vite's module-preload polyfill lives in the entry chunk, the service worker is registered
// from app code (`injectRegister: false`), and Mantine's colour scheme comes from localStorage at
// runtime instead of an inline ColorSchemeScript.
//
// The service worker is our own (workers/serviceWorker/sw.ts, `injectManifest`): it precaches the
// app shell and answers the download stream (docs/decisions.md). Workbox injects the precache list.
export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers/serviceWorker',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'logo.svg'],
      manifest: {
        name: 'Cairn',
        short_name: 'Cairn',
        description: 'End-to-end encrypted vaults for your files, notes and conversations.',
        theme_color: '#1c6b60',
        background_color: '#12171b',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: 'pwa-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'pwa-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // libsodium-sumo, OPAQUE and the zxcvbn dictionaries make chunks above Workbox's 2 MiB default.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,webmanifest}'],
        // pdfjs (about 2 MB), imported by the thumbnail worker only when a PDF is uploaded (R79a):
        // a device that never uploads one never downloads it.
        globIgnores: ['**/pdf-*.js', '**/pdfjs.worker-*.js'],
        // A classic script: the page registers it without `type: 'module'`.
        rollupFormat: 'iife',
      },
    }),
  ],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    // The crypto worker bundles libsodium-sumo and OPAQUE (wasm inlined): large by nature.
    chunkSizeWarningLimit: 1500,
  },
  // The API refuses state-changing requests and sockets whose Origin is not PUBLIC_URL's
  // (server/http/originCheck.ts): the dev proxy presents the page as the server's own origin.
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: false, ws: true, headers: { origin: 'http://localhost:8080' } },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: false, ws: true, headers: { origin: 'http://localhost:8080' } },
    },
  },
});
