export { MyProfile } from './components/my-profile';
export { UserProfileView } from './components/user-profile-view';
