import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The page: `vite build` writes dist/, which the app's server (src/server) serves.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // useChat, React and the AI SDK's client in one file: about 460 kB before gzip.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1000 },
});
