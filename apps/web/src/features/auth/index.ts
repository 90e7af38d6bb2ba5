// Signing in and up (email, Google, Telegram), activation and password reset.
export { takeActivationReturn, welcomePath } from './activation-return';
export { normaliseEmail } from './api/auth.api';
export { legalDocumentUrls } from './components/legal-links';
export { SignInPanel } from './components/sign-in-panel';
export { SignUpForm } from './components/sign-up-form';
export { fetchPublicConfig, usePublicConfig } from './hooks/use-public-config';
export { useActivation, type ActivationState } from './hooks/use-activation';
export { useConfirmPasswordReset, useRequestPasswordReset } from './hooks/use-password-reset';
