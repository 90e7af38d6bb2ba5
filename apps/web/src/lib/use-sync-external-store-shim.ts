/**
 * What `use-sync-external-store/shim` gives on React 18 and later: React's own hook. The build
 * points the package (react-i18next imports it) here, so its fallback for older React is not shipped; Preact's
 * compatibility layer has the hook too.
 */
export { useSyncExternalStore } from 'react';
