import { useCallback } from 'react';
import { authApi } from '../api/auth.api';

/** 'Forgot password': sends the email with a reset link to the address. */
export function useRequestPasswordReset() {
  return useCallback((email: string) => authApi.resetPassword(email), []);
}

/** The reset link's form: sets the new password for the link's account. */
export function useConfirmPasswordReset() {
  return useCallback(
    ({ uid, token, password }: { uid: string; token: string; password: string }) =>
      authApi.resetPasswordConfirm(uid, token, password),
    [],
  );
}
