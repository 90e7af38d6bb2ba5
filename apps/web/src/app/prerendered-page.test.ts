import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';

// index.html's own inline scripts, run as the browser runs them: the head's check, then the body's.
const indexHtml = readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8');
const inlineScripts = [...indexHtml.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
const headCheck = inlineScripts.find((script) => script.includes("getAttribute('data-prerendered')"))!;
const bodySwap = inlineScripts.find((script) => script.includes("getElementById('root')"))!;

const PRERENDERED = '<h1 class="hero__title">Ваши фото, созданные ИИ</h1>';

/** A prerendered Russian page loading at `address`: what #root shows once both scripts ran. */
function load(address = '/'): { root: HTMLElement; stillPrerendered: boolean } {
  window.history.replaceState(null, '', address);
  document.documentElement.setAttribute('data-prerendered', 'ru');
  document.body.innerHTML = `<div id="root" data-prerendered>${PRERENDERED}</div>`;
  new Function(headCheck)();
  new Function(bodySwap)();
  const root = document.getElementById('root')!;
  return { root, stillPrerendered: document.documentElement.hasAttribute('data-prerendered') };
}

afterEach(() => {
  document.documentElement.classList.remove('is-ready');
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.removeAttribute('data-prerendered');
  window.history.replaceState(null, '', '/');
});

describe('a prerendered landing page', () => {
  it('stays on screen for a visitor without a session in its language', () => {
    const { root, stillPrerendered } = load();
    expect(root.innerHTML).toBe(PRERENDERED);
    expect(stillPrerendered).toBe(true);
    localStorage.setItem(STORAGE_KEYS.language, 'ru');
    expect(load().root.innerHTML).toBe(PRERENDERED);
  });

  it('gives way to the loading mark for a signed-in visitor, another chosen language or Telegram', () => {
    const cases: Array<[string, () => void, string?]> = [
      ['a session', () => localStorage.setItem(STORAGE_KEYS.refresh, 'refresh-token')],
      ['another language', () => localStorage.setItem(STORAGE_KEYS.language, 'de')],
      ['a sign-in link', () => {}, '/?token=abc'],
      ['a Mini App launch', () => {}, '/#tgWebAppData=query_id%3D1&tgWebAppVersion=8.0'],
      ['a Mini App reload', () => sessionStorage.setItem('tapps/launchParams', '"tgWebAppData=x"')],
      ['the Telegram dev mode', () => {}, '/?tg_dev=1'],
    ];
    for (const [name, arrange, address] of cases) {
      arrange();
      const { root, stillPrerendered } = load(address);
      expect(root.querySelector('.boot__mark'), name).not.toBeNull();
      expect(root.textContent, name).toBe('');
      expect(root.hasAttribute('data-prerendered'), name).toBe(false);
      // The start script then runs the app at once instead of after a paint.
      expect(stillPrerendered, name).toBe(false);
      localStorage.clear();
      sessionStorage.clear();
    }
  });

  it('leaves an ordinary page (the loading mark) alone', () => {
    document.body.innerHTML = '<div id="root"><div class="boot"></div></div>';
    new Function(headCheck)();
    new Function(bodySwap)();
    expect(document.getElementById('root')!.innerHTML).toBe('<div class="boot"></div>');
  });

  it('keeps taps and typing made before the app runs and hands them to it once it does', () => {
    window.history.replaceState(null, '', '/');
    document.documentElement.setAttribute('data-prerendered', 'en');
    document.body.innerHTML =
      '<div id="root" data-prerendered><button type="button"><span>Sign in</span></button>' +
      '<input type="search" value=""></div>';
    new Function(headCheck)();
    new Function(bodySwap)();
    const button = document.querySelector('button')!;
    const field = document.querySelector('input')!;
    // Before the app: a tap on the button's label and some typing.
    button.querySelector('span')!.click();
    field.value = 'astronaut';
    field.dispatchEvent(new Event('input', { bubbles: true }));

    // The app takes the same elements over: its handlers, its (empty) field value.
    const taps: number[] = [];
    const typed: string[] = [];
    button.addEventListener('click', () => taps.push(1));
    field.value = '';
    field.addEventListener('input', () => typed.push(field.value));
    expect(taps).toEqual([]);
    document.documentElement.classList.add('is-ready');
    window.dispatchEvent(new Event('app-ready'));
    expect(taps).toEqual([1]);
    expect(typed).toEqual(['astronaut']);
    expect(field.value).toBe('astronaut');
    // Once the app runs, taps go straight to it.
    button.click();
    expect(taps).toEqual([1, 1]);
  });
});
