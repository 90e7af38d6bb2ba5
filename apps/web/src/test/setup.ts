import { options } from 'preact';
import { afterEach } from 'vitest';

// Preact runs effects after the next frame, with a 100 ms timer in case no frame comes. jsdom's
// frame functions leave with the test environment at the end of a file, so on a busy machine that
// timer fired afterwards and threw "cancelAnimationFrame is not defined". A plain timer has no
// frame to cancel.
options.requestAnimationFrame = (callback) => void setTimeout(callback);

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
});
