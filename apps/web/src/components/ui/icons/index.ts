// The app's icon set: 24×24 strokes that take the current text colour. Split in two modules so the
// first screen does not download the icons only other pages draw.
export * from './first-screen-icons';
export * from './page-icons';
