import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      treeshake: {
        // The shared contracts only declare schemas and constants: the browser keeps the constants
        // it uses and none of the zod schemas it only takes types from.
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]contracts[\\/]/.test(id),
      },
    },
  },
});
