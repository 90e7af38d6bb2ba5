import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { GenerationStatus } from '@mirra/contracts';
import type { TGeneration, TGenerationList } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { generationsApi } from '../api/generations.api';
import GenerationsGrid from './generations-grid';

/** Stands in for IntersectionObserver: the test says when the end of the list comes into view. */
class FakeObserver {
  static all: FakeObserver[] = [];
  elements: Element[] = [];
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {
    this.elements = [];
  }
  static showEnd() {
    for (const observer of FakeObserver.all.filter((o) => o.elements.length)) {
      observer.callback(
        observer.elements.map((target) => ({ isIntersecting: true, target }) as IntersectionObserverEntry),
        observer as unknown as IntersectionObserver,
      );
    }
  }
}

function generation(n: number, patch: Partial<TGeneration> = {}): TGeneration {
  const id = String(n).padStart(12, '0');
  return {
    uuid: `00000000-0000-4000-8000-${id}`,
    mode: 'simple',
    status: GenerationStatus.COMPLETED,
    progress: 100,
    prompt: `Picture ${n}`,
    guidance: 7,
    seed: n,
    style: null,
    images: [],
    model_uuid: null,
    post_uuid: null,
    cost: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:02.000Z',
    result: {
      url: `/m/${n}/original.png`,
      download_url: `/m/${n}/original.png?download=x.png`,
      width: 1024,
      height: 1024,
      content_type: 'image/png',
      variants: [
        { url: `/m/${n}/w1024.webp`, width: 1024, height: 1024 },
        { url: `/m/${n}/w256.webp`, width: 256, height: 256 },
      ],
      engine: 'local',
      notes: [],
    },
    error_code: null,
    error_detail: null,
    error_reason: null,
    refunded: false,
    ...patch,
  };
}

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
beforeEach(() => {
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderGrid() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <GenerationsGrid />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('generations on home', () => {
  it('shows my results newest first from the smallest rendition, and loads the next page at the end', async () => {
    const pages: Record<string, TGenerationList> = {
      first: {
        results: [
          generation(3, { status: GenerationStatus.IN_PROGRESS, progress: 40, result: null }),
          generation(2, {
            status: GenerationStatus.ERROR,
            result: null,
            error_code: 'generations.bad_input',
          }),
          generation(1),
        ],
        next: '1',
      },
      '1': { results: [generation(0)], next: null },
    };
    const list = vi
      .spyOn(generationsApi, 'list')
      .mockImplementation(async (cursor) => pages[cursor ?? 'first']!);
    renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('generation-tile')).toHaveLength(3));
    const tiles = screen.getAllByTestId('generation-tile');
    expect(tiles.map((tile) => tile.getAttribute('href'))).toEqual([
      '/generation/00000000-0000-4000-8000-000000000003/',
      '/generation/00000000-0000-4000-8000-000000000002/',
      '/generation/00000000-0000-4000-8000-000000000001/',
    ]);
    expect(tiles[0]!.textContent).toBe('40%');
    expect(tiles[1]!.textContent).toBe('Failed');
    expect(tiles[2]!.querySelector('img')!.getAttribute('src')).toBe('/m/1/w256.webp');
    expect(list).toHaveBeenCalledTimes(1);

    act(() => FakeObserver.showEnd());
    await waitFor(() => expect(screen.getAllByTestId('generation-tile')).toHaveLength(4));
    expect(list).toHaveBeenLastCalledWith('1');
    expect(screen.queryByTestId('generations-more')).toBeNull();
  });

  it('marks a video with a badge saying its length, its poster as the thumbnail', async () => {
    const video = generation(5, { mode: 'video', duration: 10, aspect: '9:16' });
    video.result = {
      ...video.result!,
      url: '/m/5/original.mp4',
      content_type: 'video/mp4',
      variants: [{ url: '/m/5/w720.webp', width: 720, height: 1280 }],
    };
    vi.spyOn(generationsApi, 'list').mockResolvedValue({ results: [video, generation(4)], next: null });
    renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('generation-tile')).toHaveLength(2));
    const [videoTile, pictureTile] = screen.getAllByTestId('generation-tile');
    expect(videoTile!.querySelector('[data-testid="tile-video-badge"]')!.textContent).toBe('10 s');
    expect(videoTile!.querySelector('img')!.getAttribute('src')).toBe('/m/5/w720.webp');
    expect(pictureTile!.querySelector('[data-testid="tile-video-badge"]')).toBeNull();
  });

  it('a video tile turns from its poster into its animated preview once it is in view', async () => {
    let show: (() => void) | null = null;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          show = () => callback([{ isIntersecting: true } as IntersectionObserverEntry], this as never);
        }
        observe() {}
        disconnect() {}
      },
    );
    const video = generation(5, { mode: 'video', duration: 3, aspect: '9:16' });
    video.result = {
      ...video.result!,
      url: '/m/5/original.mp4',
      content_type: 'video/mp4',
      preview: { url: '/m/5/preview.webp', width: 180, height: 320 },
    };
    vi.spyOn(generationsApi, 'list').mockResolvedValue({ results: [video], next: null });
    renderGrid();
    const image = (await screen.findByTestId('generation-tile')).querySelector('img')!;
    expect(image.getAttribute('src')).toBe('/m/5/w256.webp');
    // The tile starts watching once its effects have run (after the first paint).
    await waitFor(() => expect(show).not.toBeNull());
    act(() => show!());
    expect(image.getAttribute('src')).toBe('/m/5/preview.webp');
    expect(image.dataset.animated).toBe('true');
    vi.unstubAllGlobals();
  });

  it('loads the first row’s pictures at once and first, and the rest lazily', async () => {
    const results = Array.from({ length: 6 }, (_, n) => generation(6 - n));
    vi.spyOn(generationsApi, 'list').mockResolvedValue({ results, next: null });
    renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('generation-tile')).toHaveLength(6));
    const images = screen.getAllByTestId('generation-tile').map((tile) => tile.querySelector('img')!);
    expect(images.map((image) => image.getAttribute('loading'))).toEqual([
      'eager',
      'eager',
      'eager',
      'eager',
      'lazy',
      'lazy',
    ]);
    expect(images[0]!.getAttribute('fetchpriority')).toBe('high');
    expect(images[5]!.getAttribute('fetchpriority')).toBeNull();
  });

  it('a page that fails to load keeps the ones shown, says why, and its retry loads it', async () => {
    let failNext = true;
    const list = vi.spyOn(generationsApi, 'list').mockImplementation(async (cursor) => {
      if (!cursor) return { results: [generation(2), generation(1)], next: '1' };
      if (failNext) throw new TypeError('Failed to fetch');
      return { results: [generation(0)], next: null };
    });
    renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('generation-tile')).toHaveLength(2));
    act(() => FakeObserver.showEnd());
    await screen.findByRole('alert');
    expect(screen.getAllByTestId('generation-tile')).toHaveLength(2);
    failNext = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByTestId('generation-tile')).toHaveLength(3));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(list).toHaveBeenLastCalledWith('1');
  });

  it('shows the empty state with the way to create the first one', async () => {
    vi.spyOn(generationsApi, 'list').mockResolvedValue({ results: [], next: null });
    renderGrid();
    await screen.findByText('No generations yet');
    expect(screen.getByRole('link', { name: 'Create the first one' }).getAttribute('href')).toBe('/create/');
  });
});
