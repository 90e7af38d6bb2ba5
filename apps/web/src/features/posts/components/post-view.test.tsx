import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import type { TSaveState } from '../../../lib/api-types';
import { useSession } from '../../../lib/session';
import { createTestI18n } from '../../../test/i18n';
import { makePost } from '../../../test/posts';
import { postsApi } from '../api/posts.api';
import { PostView } from './post-view';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
beforeEach(() => {
  useSession.setState({ isLoggedIn: true, status: 'ready' });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a post', () => {
  it('sends one save at a time: a second tap while the first is on its way sends nothing', async () => {
    const post = makePost(7, { is_saved: false });
    vi.spyOn(postsApi, 'get').mockResolvedValue(post);
    vi.spyOn(postsApi, 'view').mockResolvedValue(null);
    let answer!: (state: TSaveState) => void;
    const save = vi
      .spyOn(postsApi, 'save')
      .mockReturnValue(new Promise<TSaveState>((resolve) => (answer = resolve)));
    const unsave = vi.spyOn(postsApi, 'unsave');
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <PostView uuid={post.uuid} renderRepeat={() => null} />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    const button = await screen.findByTestId('post-save');
    fireEvent.click(button);
    fireEvent.click(button);
    expect(save).toHaveBeenCalledTimes(1);
    expect(unsave).not.toHaveBeenCalled();
    answer({ is_saved: true, saves_count: 1 } as TSaveState);
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  });
});
