// Profiles: mine and other people's, with their posts and subscriptions.
export { MyProfile } from './components/my-profile';
export { UserProfileView } from './components/user-profile-view';
