export { profileApi } from './api/profile.api';
export { fullName, ProfileCard } from './components/profile-card';
