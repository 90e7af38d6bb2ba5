import { describe, expect, it } from 'vitest';
import { animateScene, shapeForFrame } from './scene.animation.js';
import { planScene } from './scene.models.js';
import { subjectPlacements } from './subjects.check.js';

// Small frames keep the test quick; the drawing scales with the frame.
async function sceneOf(prompt: string, width = 180, height = 320) {
  const plan = { ...planScene(prompt, 11), width, height, shape: shapeForFrame(width, height) };
  return { plan, animation: await animateScene(plan, 3) };
}

/** Mean absolute difference over rows [y0, y1) of two RGB frames. */
function difference(a: Buffer, b: Buffer, width: number, y0: number, y1: number) {
  let sum = 0;
  for (let i = y0 * width * 3; i < y1 * width * 3; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / ((y1 - y0) * width * 3);
}

describe('an animated scene from a description', () => {
  it('a sunset over the sea: clouds drift in the sky and the water ripples, frame after frame', async () => {
    const { animation } = await sceneOf('sunset over the sea with clouds');
    expect(animation.motions).toEqual(expect.arrayContaining(['clouds', 'water', 'light']));
    expect(animation.motions).not.toContain('snow');
    const first = animation.frameAt(0, 3);
    const later = animation.frameAt(1.5, 3);
    expect(first).toHaveLength(180 * 320 * 3);
    // Sky (top third) and water (bottom fifth) both change.
    expect(difference(first, later, 180, 0, 100)).toBeGreaterThan(1);
    expect(difference(first, later, 180, 260, 320)).toBeGreaterThan(1.5);
  });

  it('snow falls and stars twinkle at night; the same plan gives the same frames', async () => {
    const { plan, animation } = await sceneOf('snowy mountains at night under the stars', 320, 180);
    expect(animation.motions).toEqual(expect.arrayContaining(['snow', 'stars']));
    const a = animation.frameAt(1, 3);
    const b = animation.frameAt(1.25, 3);
    expect(difference(a, b, 320, 0, 180)).toBeGreaterThan(1);
    const again = await animateScene(plan, 3);
    expect(again.frameAt(1, 3).equals(a)).toBe(true);
  });

  it('a prompt with nothing scenic gets a slow camera move over its abstract still', async () => {
    const { animation } = await sceneOf('my birthday party', 160, 160);
    expect(animation.motions).toContain('camera');
    expect(difference(animation.frameAt(0, 3), animation.frameAt(3, 3), 160, 0, 160)).toBeGreaterThan(2);
  });

  it("draws the prompt's subjects into the video too, where the still has them", async () => {
    const { plan, animation } = await sceneOf('a red fox in the snow');
    const bare = await animateScene({ ...plan, subjects: [] }, 3);
    const [fox] = subjectPlacements(plan);
    const { x, y, w, h } = fox!.box;
    const a = animation.frameAt(0, 3);
    const b = bare.frameAt(0, 3);
    let changed = 0;
    for (let row = Math.max(0, y); row < Math.min(plan.height, y + h); row++) {
      for (let col = Math.max(0, x); col < Math.min(plan.width, x + w); col++) {
        const i = (row * plan.width + col) * 3;
        if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 30)
          changed++;
      }
    }
    expect(changed).toBeGreaterThan(w * h * 0.2);
  });
});
