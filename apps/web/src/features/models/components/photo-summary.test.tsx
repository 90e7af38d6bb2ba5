import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TModelPhoto } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { PhotoSummary } from './photo-summary';

let en: I18n;
let de: I18n;
beforeAll(async () => {
  [en, de] = await Promise.all([createTestI18n('en'), createTestI18n('de')]);
});
afterEach(cleanup);

const photo = (index: number, pose: 'front' | 'side', tips: TModelPhoto['tips'] = []): TModelPhoto => ({
  uuid: `00000000-0000-4000-a000-${String(index).padStart(12, '0')}`,
  ok: true,
  problems: [],
  tips: [`pose.${pose}`, ...tips],
  pose,
  thumbnail_url: `/thumb/${index}`,
  created_at: '2026-03-01T00:00:00.000Z',
});

function renderSummary(i18n: I18n, photos: TModelPhoto[], minPhotos = 15) {
  return render(
    <I18nextProvider i18n={i18n}>
      <PhotoSummary photos={photos} goodCount={photos.filter((p) => p.ok).length} minPhotos={minPhotos} />
    </I18nextProvider>,
  );
}

describe('the photo summary', () => {
  it('counts good photos as "15 of 15 needed" and asks for variety when they all look alike', () => {
    const alike = Array.from({ length: 15 }, (_, i) => photo(i, 'front'));
    renderSummary(en, alike);
    expect(screen.getByTestId('good-count').textContent).toBe('Good photos: 15 of 15 needed');
    expect(screen.getByTestId('variety-hint').textContent).toBe(
      'Many of your photos look alike: the same angle and the same light. Add some from the side, in other light and other places.',
    );
  });

  it('does not ask for variety of a varied set, and words the counter in the chosen language', () => {
    const varied = [
      ...Array.from({ length: 8 }, (_, i) => photo(i, 'front')),
      photo(8, 'side'),
      photo(9, 'side', ['face.glasses']),
      photo(10, 'front', ['photo.low_light']),
      photo(11, 'front', ['photo.low_light', 'face.glasses']),
    ];
    renderSummary(de, varied);
    expect(screen.getByTestId('good-count').textContent).toBe('Geeignete Fotos: 12 von 15 benötigten');
    expect(screen.queryByTestId('variety-hint')).toBeNull();
  });
});
