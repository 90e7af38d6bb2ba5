import { useCallback } from 'react';
import type { TProfileUpdateBody } from '../../../lib/api-types';
import { useSession } from '../../../lib/session';
import { profileApi } from '../api/profile.api';

/** Saves my profile fields (the language among them); the session's user becomes the saved one. */
export function useUpdateProfile() {
  return useCallback(async (fields: TProfileUpdateBody) => {
    const user = await profileApi.update(fields);
    useSession.getState().setUser(user);
    return user;
  }, []);
}
