export { takeActivationReturn } from './activation-return';
export { authApi, normaliseEmail } from './api/auth.api';
export { legalDocumentUrls } from './components/legal-links';
export { SignInPanel } from './components/sign-in-panel';
export { SignUpForm } from './components/sign-up-form';
export { usePublicConfig } from './hooks/use-public-config';
