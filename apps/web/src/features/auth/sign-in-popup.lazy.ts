// Loaded on demand, the first time sign-in is asked for.
export { default } from './components/sign-in-popup';
