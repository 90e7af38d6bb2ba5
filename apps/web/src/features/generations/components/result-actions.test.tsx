import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TGeneration, TGenerationResult } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { renderWithPublicConfig } from '../../../test/public-config';
import { ResultActions } from './result-actions';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

const picture: TGenerationResult = {
  url: '/m/1/original.png',
  download_url: '/m/1/original.png?download=a.png',
  width: 720,
  height: 1280,
  content_type: 'image/png',
  variants: [],
  engine: 'local',
  notes: [],
};
const generation = {
  uuid: 'g1',
  mode: 'simple',
  prompt: 'a lighthouse',
  status: 100,
} as unknown as TGeneration;

/** The buttons and links a person sees on the screen itself (a sheet is a dialog over it). */
const onScreen = () =>
  [...document.querySelectorAll('.result-actions a, .result-actions button')].map((node) =>
    node.getAttribute('data-testid'),
  );

describe('a result’s actions', () => {
  it('a picture shows download, share, edit, animate, publish and one Tools button; face swap, the tools, repeat and profile are in its sheet', () => {
    renderWithPublicConfig(<ResultActions generation={generation} result={picture} />, {
      path: '/generation/g1/',
      i18n,
      config: { unavailable_modes: [] },
    });
    expect(onScreen()).toEqual([
      'result-download',
      'result-share',
      'result-edit',
      'result-animate',
      'result-publish',
      'result-tools',
    ]);
    fireEvent.click(screen.getByTestId('result-tools'));
    const sheet = screen.getByRole('dialog');
    for (const action of [
      'result-face-swap',
      'result-tool-upscale',
      'result-tool-restore',
      'result-tool-background',
      'result-tool-inpaint',
      'result-tool-outpaint',
      'result-tool-try_on',
      'result-tool-talking_photo',
      'result-repeat',
      'result-profile',
    ]) {
      expect(within(sheet).getByTestId(action), action).toBeTruthy();
    }
  });

  it('a video shows its few actions without a sheet', () => {
    renderWithPublicConfig(
      <ResultActions generation={generation} result={{ ...picture, content_type: 'video/mp4' }} />,
      { path: '/generation/g1/', i18n, config: { unavailable_modes: [] } },
    );
    expect(onScreen()).toEqual([
      'result-download',
      'result-share',
      'result-repeat',
      'result-profile',
      'result-publish',
    ]);
  });
});
