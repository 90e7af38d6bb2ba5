// Loaded on demand: the header asks for it only once someone is signed in.
export { default } from './components/credits-chip';
