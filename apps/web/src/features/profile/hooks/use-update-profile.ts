import { useMutation } from '@tanstack/react-query';
import type { TProfileUpdateBody } from '../../../lib/api-types';
import { useSession } from '../../../lib/session';
import { profileApi } from '../api/profile.api';

/** Saves my profile fields (the language among them); the session's user becomes the saved one. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: (fields: TProfileUpdateBody) => profileApi.update(fields),
    onSuccess: (user) => useSession.getState().setUser(user),
  });
}
