import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { ApiError } from '../../../lib/api-error';
import { createTestI18n } from '../../../test/i18n';
import { makePost } from '../../../test/posts';
import { postsApi } from '../api/posts.api';
import { PublishAction } from './publish-action';

const generation = { uuid: '00000000-0000-4000-a000-000000000009', prompt: 'A red fox in the snow' };

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function renderAction() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/generation/x/']}>
          <Routes>
            <Route path="*" element={<PublishAction generation={generation} />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** The button waits for the "is it posted?" answer before it can be pressed. */
async function openSheet() {
  const button = await screen.findByTestId('result-publish');
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
  await screen.findByTestId('publish-sheet');
}

describe('publishing from the result screen', () => {
  it('publishes with a title, showing the prompt that goes with it, then opens the post', async () => {
    vi.spyOn(postsApi, 'ofGeneration').mockResolvedValue(null);
    const post = makePost(4, { is_mine: true, generation_uuid: generation.uuid });
    const create = vi.spyOn(postsApi, 'create').mockResolvedValue(post);
    renderAction();
    await openSheet();
    expect((await screen.findByTestId('publish-prompt')).textContent).toBe('A red fox in the snow');
    fireEvent.input(screen.getByTestId('publish-title'), { target: { value: '  Fox  ' } });
    fireEvent.click(screen.getByTestId('publish-submit'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/post/${post.uuid}/`));
    expect(create).toHaveBeenCalledWith({ generation_uuid: generation.uuid, title: 'Fox', draft: false });
  });

  it('when whether it is posted could not be read, Publish asks again and then opens the sheet', async () => {
    const lookup = vi
      .spyOn(postsApi, 'ofGeneration')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(null);
    renderAction();
    const button = await screen.findByTestId('result-publish');
    await waitFor(() => expect(lookup).toHaveBeenCalledTimes(1));
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await screen.findByTestId('publish-sheet');
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('keeps it as a draft without leaving the result', async () => {
    vi.spyOn(postsApi, 'ofGeneration').mockResolvedValue(null);
    const create = vi.spyOn(postsApi, 'create').mockResolvedValue(makePost(4, { status: 'draft' }));
    renderAction();
    await openSheet();
    fireEvent.click(await screen.findByTestId('publish-draft'));
    await waitFor(() => expect(create).toHaveBeenCalledWith(expect.objectContaining({ draft: true })));
    await screen.findByRole('button', { name: 'Publish draft' });
    expect(screen.getByTestId('where').textContent).toBe('/generation/x/');
  });

  it('opens the existing post when the result was published meanwhile (409)', async () => {
    vi.spyOn(postsApi, 'ofGeneration').mockResolvedValue(null);
    const existing = makePost(7);
    vi.spyOn(postsApi, 'create').mockRejectedValue(
      new ApiError(409, { code: 'posts.already_exists', detail: 'x', post_uuid: existing.uuid }),
    );
    renderAction();
    await openSheet();
    fireEvent.click(await screen.findByTestId('publish-submit'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/post/${existing.uuid}/`));
  });

  it('shows a refused title under the field', async () => {
    vi.spyOn(postsApi, 'ofGeneration').mockResolvedValue(null);
    vi.spyOn(postsApi, 'create').mockRejectedValue(
      new ApiError(400, {
        code: 'posts.title_moderated',
        title: ['Moderation failed: this title is not allowed.'],
      }),
    );
    renderAction();
    await openSheet();
    fireEvent.click(await screen.findByTestId('publish-submit'));
    await screen.findByText('This title is not allowed. Please change it.');
  });

  it('once public: view the post, or unpublish it', async () => {
    const post = makePost(5, { is_mine: true, generation_uuid: generation.uuid });
    vi.spyOn(postsApi, 'ofGeneration').mockResolvedValue(post);
    const unpublish = vi.spyOn(postsApi, 'unpublish').mockResolvedValue({ ...post, status: 'draft' });
    renderAction();
    expect((await screen.findByTestId('result-view-post')).getAttribute('href')).toBe(`/post/${post.uuid}/`);
    fireEvent.click(screen.getByTestId('result-unpublish'));
    await screen.findByRole('button', { name: 'Publish draft' });
    expect(unpublish).toHaveBeenCalledWith(post.uuid);
  });
});
