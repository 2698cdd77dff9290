import { defineConfig } from 'vite';

// The app: index.html -> src/app/main.ts; the simulation runs in a module Web Worker.
export default defineConfig({
  worker: { format: 'es' },
  server: { port: 5173 },
  preview: { port: 4173 },
  build: { target: 'es2022', outDir: 'dist' },
});
