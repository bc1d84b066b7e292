/**
 * Vite build of the dashboard: hashed files under /_app/ (served immutable by the service; /assets/
 * belongs to thumbnails), JSX by esbuild, the player (hls.js) split into its own lazy chunk.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    assetsDir: '_app',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
  },
});
