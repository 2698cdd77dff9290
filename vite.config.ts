import { defineConfig } from 'vite';

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// The app: index.html -> src/app/main.ts; the simulation runs in a module Web Worker.
export default defineConfig({
  worker: { format: 'es' },
  // Cross-origin isolation, so the particle engine's worker threads can share memory
  // (SharedArrayBuffer; src/app/threads.ts falls back to one thread without it).
  server: { port: 5173, headers: ISOLATION },
  // Pre-bundled up front so that the first page load never triggers a dependency re-optimisation:
  // the scanner reads the page's imports only, and one found later in a worker (isosurface,
  // @gltf-transform/core) makes vite answer that worker's module requests with 504 meanwhile.
  optimizeDeps: { include: ['regl', 'lil-gui', 'uplot', 'fflate', 'zod', 'isosurface', '@gltf-transform/core'] },
  preview: { port: 4173, headers: ISOLATION },
  build: { target: 'es2022', outDir: 'dist-app' },
});
