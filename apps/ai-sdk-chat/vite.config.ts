import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The page: `vite build` writes dist/, which the app's server (src/server) serves.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
});
