import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TPost } from '../../../lib/api-types';
import { PostImage } from './post-image';

/** Stands in for IntersectionObserver: the test says when the video comes into view or leaves. */
class FakeObserver {
  static last: FakeObserver | null = null;
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.last = this;
  }
  observe() {}
  disconnect() {}
  static show(isIntersecting: boolean) {
    FakeObserver.last!.callback(
      [{ isIntersecting } as IntersectionObserverEntry],
      FakeObserver.last as unknown as IntersectionObserver,
    );
  }
}

const image: TPost['image'] = {
  url: '/m/1/original.mp4',
  width: 720,
  height: 1280,
  content_type: 'video/mp4',
  variants: [
    { url: '/m/1/w360.webp', width: 360, height: 640 },
    { url: '/m/1/w720.webp', width: 720, height: 1280 },
  ],
};

let play: ReturnType<typeof vi.fn>;
let pause: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  play = vi.fn(() => Promise.resolve());
  pause = vi.fn();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play as never);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(pause as never);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a video post', () => {
  it('shows its poster at the video’s size, muted and looping, and plays only while in view', () => {
    render(<PostImage image={image} alt="A lighthouse" sizes="100vw" testId="post-image" />);
    const video = screen.getByTestId('post-image') as HTMLVideoElement;
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('poster')).toBe('/m/1/w720.webp');
    expect([video.getAttribute('width'), video.getAttribute('height')]).toEqual(['720', '1280']);
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.hasAttribute('playsinline')).toBe(true);
    expect(play).not.toHaveBeenCalled();

    FakeObserver.show(true);
    expect(play).toHaveBeenCalledTimes(1);
    FakeObserver.show(false);
    expect(pause).toHaveBeenCalledTimes(1);
  });

  it('a picture post stays a picture', () => {
    render(
      <PostImage
        image={{ ...image, url: '/m/2/original.jpg', content_type: 'image/jpeg' }}
        alt="x"
        sizes="100vw"
        testId="post-image"
      />,
    );
    expect(screen.getByTestId('post-image').tagName).toBe('IMG');
  });
});
