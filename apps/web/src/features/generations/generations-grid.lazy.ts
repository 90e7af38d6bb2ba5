// Loaded on demand: guests never download the list of generations (or its texts).
export { default } from './components/generations-grid';
