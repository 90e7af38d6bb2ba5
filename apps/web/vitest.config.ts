import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Deliberately bad imports for the lint rules' test, not tests themselves.
    exclude: [...configDefaults.exclude, 'src/test/lint-fixtures/**'],
    setupFiles: ['src/test/setup.ts'],
  },
});
