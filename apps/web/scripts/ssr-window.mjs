/**
 * A browser-like global scope for the app's modules in Node (the prerender at build time, the
 * server's page renderer): jsdom's window, empty storage, and no network — a request fails at
 * once, as for a visitor whose data has not arrived, and the page shows what it shows meanwhile.
 */
import { JSDOM } from 'jsdom';

const GLOBALS = [
  'window',
  'document',
  'navigator',
  'location',
  'history',
  'localStorage',
  'sessionStorage',
  'Node',
  'Element',
  'HTMLElement',
  'SVGElement',
  'Text',
  'DocumentFragment',
  'Event',
  'CustomEvent',
  'MutationObserver',
  'getComputedStyle',
  'requestAnimationFrame',
  'cancelAnimationFrame',
];

export function installWindow(origin = 'http://localhost') {
  const { window } = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
    url: `${origin}/`,
    pretendToBeVisual: true,
  });
  for (const name of GLOBALS) {
    Object.defineProperty(globalThis, name, { value: window[name], configurable: true, writable: true });
  }
  // Scroll restoration runs in effects; a document nobody sees has nothing to scroll.
  window.scrollTo = () => {};
  const offline = () => Promise.reject(new TypeError('no network while rendering a page'));
  window.fetch = offline;
  globalThis.fetch = offline;
  window.matchMedia ??= (query) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  });
  class Unobserved {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  for (const name of ['IntersectionObserver', 'ResizeObserver']) {
    window[name] ??= Unobserved;
    globalThis[name] ??= Unobserved;
  }
  return window;
}
