import { defineConfig } from 'vite';

// The app: index.html -> src/app/main.ts; the simulation runs in a module Web Worker.
export default defineConfig({
  worker: { format: 'es' },
  server: { port: 5173 },
  // Pre-bundled up front so that the first page load never triggers a dependency re-optimisation reload.
  optimizeDeps: { include: ['regl', 'lil-gui', 'uplot', 'fflate', 'zod'] },
  preview: { port: 4173 },
  build: { target: 'es2022', outDir: 'dist' },
});
