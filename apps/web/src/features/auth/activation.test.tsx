import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Page as ActivatePage } from '../../app/routes/activate';
import { Page as WelcomePage } from '../../app/routes/welcome';
import { useAppStore } from '../../lib/app-store';
import { useSession } from '../../lib/session';
import { createTestI18n } from '../../test/i18n';
import { jsonResponse } from '../../test/http';
import { accessExpiringIn } from '../../test/jwt';
import { safeReturnPath, signUpPath } from './activation-return';
import { authApi } from './api/auth.api';
import { SignUpForm } from './components/sign-up-form';
import { useFinishSignIn } from './hooks/use-finish-sign-in';

const USER = {
  id: 7,
  uuid: '6f1f6c3e-2f55-4a59-9a68-0d6f4bb3e6b1',
  email: 'ada@example.com',
  firstName: 'Ada',
};
const json = jsonResponse;

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  useSession.setState({ isLoggedIn: false, user: null, status: 'guest' });
});

/** The server: the activation answers `activation`, the signed-in user is Ada. */
function answerActivationWith(activation: Response) {
  const fetch = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) =>
    String(url).includes('/api/users/activation/') ? activation.clone() : json(200, USER),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

function renderAt(path: string, element: React.ReactNode, routePath: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={routePath} element={element} />
            <Route path="*" element={null} />
          </Routes>
          <Where />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the activation link', () => {
  it('signs the person in and returns them to where they started signing up', async () => {
    localStorage.setItem('activation_return', '/post/abc/?tab=remix');
    const access = accessExpiringIn(300);
    const fetch = answerActivationWith(json(200, { access, refresh: 'refresh-1' }));
    renderAt('/activate/MQ/tok-1', <ActivatePage />, '/activate/:uid/:token');

    // The onboarding first (once: the link works once), then where they started.
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        `/welcome/?next=${encodeURIComponent('/post/abc/?tab=remix')}`,
      ),
    );
    expect(localStorage.getItem('refresh')).toBe('refresh-1');
    expect(localStorage.getItem('access')).toBe(access);
    expect(localStorage.getItem('activation_return')).toBeNull();
    await waitFor(() => expect(useSession.getState()).toMatchObject({ isLoggedIn: true, user: { id: 7 } }));
    expect(useAppStore.getState().topinfo).toMatchObject({ type: 'success', text: 'Your account is active' });
    const activation = fetch.mock.calls.find(([url]) => String(url).includes('/api/users/activation/'));
    expect(JSON.parse(String(activation![1]?.body))).toEqual({
      uid: 'MQ',
      token: 'tok-1',
    });
  });

  it('goes to the onboarding, then home, when nothing was kept at sign-up', async () => {
    answerActivationWith(json(200, { access: accessExpiringIn(300), refresh: 'refresh-2' }));
    renderAt('/activate/Mg/tok-2', <ActivatePage />, '/activate/:uid/:token');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/welcome/'));
    expect(localStorage.getItem('refresh')).toBe('refresh-2');
  });

  it('a used link still says the account is active already, and signs nobody in', async () => {
    localStorage.setItem('activation_return', '/post/abc/');
    answerActivationWith(
      json(403, { detail: 'Stale token for given user.', code: 'users.activation_stale' }),
    );
    renderAt('/activate/Mw/tok-3', <ActivatePage />, '/activate/:uid/:token');
    expect(await screen.findByText('Already activated')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/activate/Mw/tok-3');
    expect(localStorage.getItem('refresh')).toBeNull();
    expect(screen.getByTestId('activate-sign-in')).toBeTruthy();
  });
});

describe('remembering where sign-up started', () => {
  it('keeps the page named in the sign-up address when the account is created', async () => {
    const register = vi
      .spyOn(authApi, 'register')
      .mockResolvedValue({ id: 1, uuid: USER.uuid, email: 'ada@example.com' });
    renderAt('/sign-up/?next=%2Fgenerate%2Fpost%2Fabc%2F', <SignUpForm />, '/sign-up/');
    fireEvent.input(screen.getByRole('textbox', { name: /email/i }), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.input(document.querySelector('input[name="password"]')!, {
      target: { value: 'Blue-Otter-73' },
    });
    fireEvent.submit(screen.getByTestId('sign-up-form'));
    await screen.findByTestId('sign-up-done');
    expect(register).toHaveBeenCalled();
    expect(localStorage.getItem('activation_return')).toBe('/generate/post/abc/');
  });

  it.each([
    ['/generate/', '/generate/'],
    ['/post/x/?a=1', '/post/x/?a=1'],
    ['//evil.example/', null],
    ['/\\evil.example', null],
    ['https://evil.example/', null],
    ['/sign-in/', null],
    ['/sign-up/?next=%2F', null],
    ['', null],
    [null, null],
  ])('returns only to pages of this app: %s → %s', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it('carries the starting page in the sign-up link', () => {
    expect(signUpPath('/post/abc/')).toBe('/sign-up/?next=%2Fpost%2Fabc%2F');
    expect(signUpPath('/sign-in/')).toBe('/sign-up/');
    expect(signUpPath(null)).toBe('/sign-up/');
  });

  it('the onboarding goes on to the kept page when skipped or finished, never off the site', async () => {
    renderAt(`/welcome/?next=${encodeURIComponent('/post/abc/')}`, <WelcomePage />, '/welcome/');
    fireEvent.click(screen.getByTestId('welcome-skip'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/post/abc/'));
    cleanup();
    renderAt(`/welcome/?next=${encodeURIComponent('//evil.example/')}`, <WelcomePage />, '/welcome/');
    for (let i = 0; i < 3; i++) fireEvent.click(screen.getByTestId('welcome-next'));
    fireEvent.click(screen.getByTestId('welcome-start'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
  });
});

/** Ends a sign-in (Google, Telegram, e-mail) with the server's answer. */
function FinishSignIn({ created }: { created: boolean }) {
  const finish = useFinishSignIn();
  return (
    <button
      type="button"
      data-testid="finish"
      onClick={() => void finish({ refresh: 'refresh-9', access: accessExpiringIn(300), created })}
    />
  );
}

describe('a sign-in that made the account', () => {
  it('shows the onboarding once, then goes on to where the sign-in started', async () => {
    answerActivationWith(json(200, USER));
    useAppStore.setState({ authTarget: '/post/abc/' });
    renderAt('/feed/', <FinishSignIn created />, '/feed/');
    fireEvent.click(screen.getByTestId('finish'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        `/welcome/?next=${encodeURIComponent('/post/abc/')}`,
      ),
    );
  });

  it('takes someone coming back straight where they were going', async () => {
    answerActivationWith(json(200, USER));
    useAppStore.setState({ authTarget: '/post/abc/' });
    renderAt('/feed/', <FinishSignIn created={false} />, '/feed/');
    fireEvent.click(screen.getByTestId('finish'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/post/abc/'));
  });
});
