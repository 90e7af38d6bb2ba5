// Loaded on demand: only signed-in people are asked whether they have premium, so guests never
// download the subscription query's code.
export { default } from './components/premium-gate';
