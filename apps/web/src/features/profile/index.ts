// A person's card and my profile's fields.
export { profileApi } from './api/profile.api';
export { fullName, ProfileCard } from './components/profile-card';
export { useUpdateProfile } from './hooks/use-update-profile';
