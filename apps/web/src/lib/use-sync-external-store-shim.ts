/**
 * What `use-sync-external-store/shim` gives on React 18 and later: React's own hook. The build
 * points the package (react-i18next imports it) here, so its fallback for older React is not shipped.
 */
export { useSyncExternalStore } from 'react';
