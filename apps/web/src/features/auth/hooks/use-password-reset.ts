import { useMutation } from '@tanstack/react-query';
import { authApi } from '../api/auth.api';

/** 'Forgot password': the server emails a reset link to the address. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (email: string) => authApi.resetPassword(email) });
}

/** The reset link's form: sets the new password for the link's account. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: ({ uid, token, password }: { uid: string; token: string; password: string }) =>
      authApi.resetPasswordConfirm(uid, token, password),
  });
}
