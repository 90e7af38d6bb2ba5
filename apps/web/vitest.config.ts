import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { preactAliases } from './preact-aliases';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      ...preactAliases,
      // Under Node, react-router's package answers with its CommonJS build, whose require('react')
      // no alias reaches; its ES module build is the same code.
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL('../../node_modules/react-router/dist/development/index.mjs', import.meta.url),
        ),
      },
      // Its package.json points Node at the CommonJS build, whose require('react-dom') no alias reaches.
      {
        find: /^@testing-library\/react$/,
        replacement: fileURLToPath(
          new URL(
            '../../node_modules/@testing-library/react/dist/@testing-library/react.esm.js',
            import.meta.url,
          ),
        ),
      },
    ],
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Deliberately bad imports for the lint rules' test, not tests themselves.
    exclude: [...configDefaults.exclude, 'src/test/lint-fixtures/**'],
    setupFiles: ['src/test/setup.ts'],
    // Libraries that import React are bundled through the aliases too, or they would load react-dom.
    server: {
      deps: {
        inline: [
          '@testing-library/react',
          '@tanstack/react-query',
          'react-router',
          'react-i18next',
          '@telegram-apps/sdk-react',
          'zustand',
          'preact',
        ],
      },
    },
  },
});
