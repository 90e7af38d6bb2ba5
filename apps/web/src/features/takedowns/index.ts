/** Takedowns on screen: the public form to ask for a post's removal, signed in or not. */
export { TakedownPage } from './takedown-page';
