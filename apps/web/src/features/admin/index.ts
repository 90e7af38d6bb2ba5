/** The staff console feature: pages import it from here only. */
export { AdminConsole, type AdminSection } from './components/admin-console';
