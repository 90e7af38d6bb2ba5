import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TGenerationResult } from '../../../lib/api-types';
import { ResultImage } from './result-image';

afterEach(cleanup);

const base: TGenerationResult = {
  url: '/m/1/original.jpg',
  download_url: '/m/1/original.jpg?download=a.jpg',
  width: 720,
  height: 1280,
  content_type: 'image/jpeg',
  variants: [
    { url: '/m/1/w360.webp', width: 360, height: 640 },
    { url: '/m/1/w720.webp', width: 720, height: 1280 },
  ],
  engine: 'local',
  notes: [],
};

describe('the result on its screen', () => {
  it('plays a video inline, muted, looping, with controls and its poster', () => {
    render(<ResultImage result={{ ...base, url: '/m/1/original.mp4', content_type: 'video/mp4' }} alt="x" />);
    expect(screen.queryByTestId('result-image')).toBeNull();
    const video = screen.getByTestId('result-video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/m/1/original.mp4');
    expect(video.getAttribute('poster')).toBe('/m/1/w720.webp');
    expect(video.muted).toBe(true);
    expect(video.autoplay).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.controls).toBe(true);
    expect(video.hasAttribute('playsinline')).toBe(true);
    expect([video.getAttribute('width'), video.getAttribute('height')]).toEqual(['720', '1280']);
  });

  it('shows a picture as an image', () => {
    render(<ResultImage result={base} alt="x" />);
    expect(screen.getByTestId('result-image').tagName).toBe('IMG');
    expect(screen.queryByTestId('result-video')).toBeNull();
  });
});
