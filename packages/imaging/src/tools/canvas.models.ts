import type { TExtendDirection, TImageAspect } from '@mirra/contracts';

/** Where a photo sits on a larger canvas, and the canvas's size. */
export interface ExtendedCanvas {
  width: number;
  height: number;
  /** The photo's top-left corner on the canvas. */
  left: number;
  top: number;
}

/** How much canvas a direction adds without a frame shape: half the photo's side. */
const EXTEND_SHARE = 0.5;

/**
 * The canvas an outpaint fills: to a frame shape (the photo kept whole and centred on the axis
 * that grows, or pushed to the side the direction names), or, with only a direction, half the
 * photo's side more that way (`all`: a quarter on every side). The photo's own pixels are never
 * cropped; a frame shape the photo already has adds nothing.
 */
export function extendedCanvas(
  width: number,
  height: number,
  target: { aspect?: TImageAspect | null; direction?: TExtendDirection | null },
): ExtendedCanvas {
  const direction = target.direction ?? 'all';
  if (target.aspect) {
    const [w, h] = target.aspect.split(':').map(Number) as [number, number];
    const canvasWidth = Math.max(width, Math.round((height * w) / h));
    const canvasHeight = Math.max(height, Math.round((width * h) / w));
    const spareX = canvasWidth - width;
    const spareY = canvasHeight - height;
    return {
      width: canvasWidth,
      height: canvasHeight,
      left: direction === 'left' ? spareX : direction === 'right' ? 0 : Math.round(spareX / 2),
      top: direction === 'up' ? spareY : direction === 'down' ? 0 : Math.round(spareY / 2),
    };
  }
  const addX = Math.round(width * EXTEND_SHARE);
  const addY = Math.round(height * EXTEND_SHARE);
  switch (direction) {
    case 'left':
      return { width: width + addX, height, left: addX, top: 0 };
    case 'right':
      return { width: width + addX, height, left: 0, top: 0 };
    case 'up':
      return { width, height: height + addY, left: 0, top: addY };
    case 'down':
      return { width, height: height + addY, left: 0, top: 0 };
    case 'all':
      return {
        width: width + 2 * Math.round(addX / 2),
        height: height + 2 * Math.round(addY / 2),
        left: Math.round(addX / 2),
        top: Math.round(addY / 2),
      };
  }
}
