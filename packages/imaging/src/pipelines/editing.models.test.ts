import { describe, expect, it } from 'vitest';
import {
  describeEdit,
  type EditOperation,
  EDITING_EXAMPLES,
  parseEditInstruction,
} from './editing.models.js';

const ops = (instruction: string) => parseEditInstruction(instruction).operations;

describe('editing instruction parser: single wishes', () => {
  it.each<[string, EditOperation[]]>([
    // brightness, with and without amounts
    ['make it brighter', [{ kind: 'brightness', percent: 20 }]],
    ['Brighten the photo', [{ kind: 'brightness', percent: 20 }]],
    ['a bit brighter', [{ kind: 'brightness', percent: 10 }]],
    ['slightly lighter please', [{ kind: 'brightness', percent: 10 }]],
    ['much brighter', [{ kind: 'brightness', percent: 40 }]],
    ['darker', [{ kind: 'brightness', percent: -20 }]],
    ['much darker', [{ kind: 'brightness', percent: -40 }]],
    ['it is too dark', [{ kind: 'brightness', percent: 20 }]],
    ['overexposed, fix it', [{ kind: 'brightness', percent: -20 }]],
    ['brightness +20%', [{ kind: 'brightness', percent: 20 }]],
    ['brightness -15 %', [{ kind: 'brightness', percent: -15 }]],
    ['increase brightness by 30%', [{ kind: 'brightness', percent: 30 }]],
    ['decrease the brightness by 25 percent', [{ kind: 'brightness', percent: -25 }]],
    ['set brightness to 120%', [{ kind: 'brightness', percent: 20 }]],
    ['darker +20%', [{ kind: 'brightness', percent: -20 }]],
    ['brightness up', [{ kind: 'brightness', percent: 20 }]],
    // contrast
    ['more contrast', [{ kind: 'contrast', percent: 20 }]],
    ['much more contrast', [{ kind: 'contrast', percent: 40 }]],
    ['lower the contrast', [{ kind: 'contrast', percent: -20 }]],
    ['contrast +35%', [{ kind: 'contrast', percent: 35 }]],
    ['punchier', [{ kind: 'contrast', percent: 20 }]],
    // saturation
    ['more vivid', [{ kind: 'saturation', percent: 30 }]],
    ['make the colours pop', [{ kind: 'saturation', percent: 30 }]],
    ['more colorful', [{ kind: 'saturation', percent: 30 }]],
    ['desaturate', [{ kind: 'saturation', percent: -30 }]],
    ['less vivid', [{ kind: 'saturation', percent: -30 }]],
    ['saturation -50%', [{ kind: 'saturation', percent: -50 }]],
    ['reduce saturation to 40%', [{ kind: 'saturation', percent: -60 }]],
    // colour removal and tone
    ['black and white', [{ kind: 'grayscale' }]],
    ['Black & White', [{ kind: 'grayscale' }]],
    ['b&w', [{ kind: 'grayscale' }]],
    ['greyscale', [{ kind: 'grayscale' }]],
    ['monochrome please', [{ kind: 'grayscale' }]],
    ['remove the colour', [{ kind: 'grayscale' }]],
    ['completely desaturate it', [{ kind: 'grayscale' }]],
    ['sepia', [{ kind: 'sepia' }]],
    ['make it look like an old photo', [{ kind: 'sepia' }]],
    ['invert the colors', [{ kind: 'invert' }]],
    ['auto enhance', [{ kind: 'auto_levels' }]],
    ['warmer', [{ kind: 'warmth', percent: 20 }]],
    ['a little warmer', [{ kind: 'warmth', percent: 10 }]],
    ['cooler tones', [{ kind: 'warmth', percent: -20 }]],
    ['much colder', [{ kind: 'warmth', percent: -40 }]],
    // geometry
    ['rotate left', [{ kind: 'rotate', degrees: 270 }]],
    ['rotate right', [{ kind: 'rotate', degrees: 90 }]],
    ['rotate 90 degrees', [{ kind: 'rotate', degrees: 90 }]],
    ['rotate it 90° counterclockwise', [{ kind: 'rotate', degrees: 270 }]],
    ['rotate by -90', [{ kind: 'rotate', degrees: 270 }]],
    ['rotate 180', [{ kind: 'rotate', degrees: 180 }]],
    ['rotate 270', [{ kind: 'rotate', degrees: 270 }]],
    ['turn it upside down', [{ kind: 'rotate', degrees: 180 }]],
    ['flip', [{ kind: 'flip', axis: 'horizontal' }]],
    ['mirror the photo', [{ kind: 'flip', axis: 'horizontal' }]],
    ['flip vertically', [{ kind: 'flip', axis: 'vertical' }]],
    ['flip it upside down', [{ kind: 'flip', axis: 'vertical' }]],
    ['crop to square', [{ kind: 'crop', aspect: { width: 1, height: 1 }, keep: 1 }]],
    ['make it square', [{ kind: 'crop', aspect: { width: 1, height: 1 }, keep: 1 }]],
    ['crop 16:9', [{ kind: 'crop', aspect: { width: 16, height: 9 }, keep: 1 }]],
    ['16:9', [{ kind: 'crop', aspect: { width: 16, height: 9 }, keep: 1 }]],
    ['crop to 4:5', [{ kind: 'crop', aspect: { width: 4, height: 5 }, keep: 1 }]],
    ['crop for instagram stories', [{ kind: 'crop', aspect: { width: 9, height: 16 }, keep: 1 }]],
    ['crop to portrait', [{ kind: 'crop', aspect: { width: 4, height: 5 }, keep: 1 }]],
    ['crop to widescreen', [{ kind: 'crop', aspect: { width: 16, height: 9 }, keep: 1 }]],
    ['crop the center', [{ kind: 'crop', aspect: null, keep: 0.8 }]],
    ['crop the centre', [{ kind: 'crop', aspect: null, keep: 0.8 }]],
    ['zoom in', [{ kind: 'crop', aspect: null, keep: 0.8 }]],
    ['crop tighter', [{ kind: 'crop', aspect: null, keep: 0.65 }]],
    // blur, sharpen, upscale
    ['blur the background', [{ kind: 'blur_background', strength: 'medium' }]],
    ['background blur', [{ kind: 'blur_background', strength: 'medium' }]],
    ['portrait mode', [{ kind: 'blur_background', strength: 'medium' }]],
    ['strong bokeh', [{ kind: 'blur_background', strength: 'strong' }]],
    ['slightly blur the background', [{ kind: 'blur_background', strength: 'light' }]],
    ['blur it', [{ kind: 'blur', strength: 'medium' }]],
    ['sharpen', [{ kind: 'sharpen', strength: 'medium' }]],
    ['make it a bit sharper', [{ kind: 'sharpen', strength: 'light' }]],
    ['enhance the details', [{ kind: 'sharpen', strength: 'medium' }]],
    ['upscale', [{ kind: 'upscale', target: { factor: 2 } }]],
    ['upscale 2x', [{ kind: 'upscale', target: { factor: 2 } }]],
    ['upscale x4', [{ kind: 'upscale', target: { factor: 4 } }]],
    ['upscale 1.5x', [{ kind: 'upscale', target: { factor: 1.5 } }]],
    ['upscale to 2048', [{ kind: 'upscale', target: { longSide: 2048 } }]],
    ['enlarge to 3000 px', [{ kind: 'upscale', target: { longSide: 3000 } }]],
    ['upscale to 10000', [{ kind: 'upscale', target: { longSide: 4096 } }]],
    ['make it 4k', [{ kind: 'upscale', target: { longSide: 3840 } }]],
    ['increase the resolution', [{ kind: 'upscale', target: { factor: 2 } }]],
  ])('%s', (instruction, expected) => {
    const parsed = parseEditInstruction(instruction);
    expect(parsed.operations).toEqual(expected);
    expect(parsed.ignored).toEqual([]);
  });
});

describe('editing instruction parser: scene wishes', () => {
  it.each<[string, EditOperation[]]>([
    [
      'Make the sky a dramatic sunset and add soft fog',
      [
        { kind: 'sky', look: 'sunset', dramatic: true },
        { kind: 'light', look: 'sunset', strength: 'light' },
        { kind: 'fog', strength: 'light' },
      ],
    ],
    ['make it a sunny beach', [{ kind: 'background', scene: 'a sunny beach' }]],
    ['put me on a beach', [{ kind: 'background', scene: 'on a beach' }]],
    ['change the background to snowy mountains', [{ kind: 'background', scene: 'snowy mountains' }]],
    ['background: forest', [{ kind: 'background', scene: 'forest' }]],
    ['in outer space', [{ kind: 'background', scene: 'in outer space' }]],
    [
      'make it night',
      [
        { kind: 'sky', look: 'night', dramatic: false },
        { kind: 'light', look: 'night', strength: 'medium' },
      ],
    ],
    [
      'golden hour',
      [
        { kind: 'sky', look: 'sunset', dramatic: false },
        { kind: 'light', look: 'golden', strength: 'medium' },
      ],
    ],
    [
      'twilight',
      [
        { kind: 'sky', look: 'dusk', dramatic: false },
        { kind: 'light', look: 'dusk', strength: 'medium' },
      ],
    ],
    [
      'stormy sky',
      [
        { kind: 'sky', look: 'stormy', dramatic: false },
        { kind: 'light', look: 'stormy', strength: 'light' },
      ],
    ],
    [
      'make the sky blue',
      [
        { kind: 'sky', look: 'clear', dramatic: false },
        { kind: 'light', look: 'sunny', strength: 'light' },
      ],
    ],
    [
      'sunny day',
      [
        { kind: 'sky', look: 'clear', dramatic: false },
        { kind: 'light', look: 'sunny', strength: 'medium' },
      ],
    ],
    ['add fog', [{ kind: 'fog', strength: 'medium' }]],
    ['thick mist', [{ kind: 'fog', strength: 'strong' }]],
    ['add rain', [{ kind: 'rain', strength: 'medium' }]],
    ['heavy rain', [{ kind: 'rain', strength: 'strong' }]],
    ['make it snowy', [{ kind: 'snow', strength: 'medium' }]],
    ['light snowfall', [{ kind: 'snow', strength: 'light' }]],
    ['vintage', [{ kind: 'vintage' }]],
    ['retro film look', [{ kind: 'vintage' }]],
  ])('%s', (instruction, expected) => {
    const parsed = parseEditInstruction(instruction);
    expect(parsed.operations).toEqual(expected);
    expect(parsed.ignored).toEqual([]);
  });

  it('paints the sky before the weather and keeps colour removal after the light', () => {
    expect(ops('add rain, black and white and make the sky stormy').map((o) => o.kind)).toEqual([
      'sky',
      'light',
      'grayscale',
      'rain',
    ]);
  });

  it('does not read a colour or a blur as a scene', () => {
    expect(ops('blur the background')).toEqual([{ kind: 'blur_background', strength: 'medium' }]);
    expect(ops('more blue').some((o) => o.kind === 'sky')).toBe(false);
  });
});

describe('editing instruction parser: combinations', () => {
  it('applies several wishes from one sentence in a sensible order', () => {
    expect(ops('make it brighter, crop to square and black and white')).toEqual([
      { kind: 'crop', aspect: { width: 1, height: 1 }, keep: 1 },
      { kind: 'brightness', percent: 20 },
      { kind: 'grayscale' },
    ]);
  });

  it('sharpens after upscaling and blurs before, whatever order the sentence uses', () => {
    expect(ops('sharpen, upscale 2x then blur the background')).toEqual([
      { kind: 'blur_background', strength: 'medium' },
      { kind: 'upscale', target: { factor: 2 } },
      { kind: 'sharpen', strength: 'medium' },
    ]);
  });

  it('adjusts colour before removing it', () => {
    expect(ops('sepia and more vivid')).toEqual([{ kind: 'saturation', percent: 30 }, { kind: 'sepia' }]);
  });

  it('carries a direction over to a property named alone', () => {
    expect(ops('increase the contrast and saturation')).toEqual([
      { kind: 'contrast', percent: 20 },
      { kind: 'saturation', percent: 30 },
    ]);
    expect(ops('lower the brightness and contrast by 10%')).toEqual([
      { kind: 'brightness', percent: -20 },
      { kind: 'contrast', percent: -10 },
    ]);
  });

  it('adds repeated adjustments up and cancels opposites', () => {
    expect(ops('brighter, and then a bit brighter')).toEqual([{ kind: 'brightness', percent: 30 }]);
    expect(ops('brighter but then darker')).toEqual([]);
  });

  it('adds quarter turns and cancels double flips', () => {
    expect(ops('rotate right and rotate right')).toEqual([{ kind: 'rotate', degrees: 180 }]);
    expect(ops('rotate left, rotate right')).toEqual([]);
    expect(ops('flip and flip again')).toEqual([]);
    expect(ops('flip horizontally and vertically')).toEqual([{ kind: 'flip', axis: 'horizontal' }]);
  });

  it('understands a long, natural request', () => {
    expect(
      ops(
        'Please rotate it left, mirror it, crop 4:5, a little darker, much more contrast, warmer, ' +
          'blur the background slightly, upscale to 2048 and sharpen it',
      ),
    ).toEqual([
      { kind: 'rotate', degrees: 270 },
      { kind: 'flip', axis: 'horizontal' },
      { kind: 'crop', aspect: { width: 4, height: 5 }, keep: 1 },
      { kind: 'brightness', percent: -10 },
      { kind: 'contrast', percent: 40 },
      { kind: 'warmth', percent: 20 },
      { kind: 'blur_background', strength: 'light' },
      { kind: 'upscale', target: { longSide: 2048 } },
      { kind: 'sharpen', strength: 'medium' },
    ]);
  });

  it('keeps "black and white" whole while splitting on "and"', () => {
    expect(ops('black and white and sharper')).toEqual([
      { kind: 'grayscale' },
      { kind: 'sharpen', strength: 'medium' },
    ]);
  });
});

describe('editing instruction parser: what it does not understand', () => {
  it.each([
    ['straighten the horizon'],
    ['remove the person on the left'],
    ['add a hat'],
    ['rotate 45 degrees'],
    ['make me look like a superhero'],
    [''],
    ['please'],
  ])('understands nothing in %j', (instruction) => {
    expect(ops(instruction)).toEqual([]);
  });

  it('reports the parts it left out, as written', () => {
    expect(parseEditInstruction('Brighter, straighten the horizon and add a hat')).toEqual({
      operations: [{ kind: 'brightness', percent: 20 }],
      ignored: ['straighten the horizon', 'add a hat'],
    });
  });

  it('does not treat "don\'t …" as a wish', () => {
    expect(parseEditInstruction("brighter but don't crop it")).toEqual({
      operations: [{ kind: 'brightness', percent: 20 }],
      ignored: ["don't crop it"],
    });
  });

  it('only offers examples it understands in full', () => {
    for (const example of EDITING_EXAMPLES) {
      const parsed = parseEditInstruction(example);
      expect(parsed.operations.length, example).toBeGreaterThan(0);
      expect(parsed.ignored, example).toEqual([]);
    }
  });

  it('lists exactly the parts it cannot do next to the ones it does', () => {
    expect(parseEditInstruction('make it night, add a dragon and remove the car and add fog')).toEqual({
      operations: [
        { kind: 'sky', look: 'night', dramatic: false },
        { kind: 'light', look: 'night', strength: 'medium' },
        { kind: 'fog', strength: 'medium' },
      ],
      ignored: ['add a dragon', 'remove the car'],
    });
  });
});

describe('edit descriptions', () => {
  it.each<[EditOperation, string]>([
    [{ kind: 'brightness', percent: 20 }, 'brightness +20%'],
    [{ kind: 'contrast', percent: -10 }, 'contrast -10%'],
    [{ kind: 'saturation', percent: 30 }, 'saturation +30%'],
    [{ kind: 'warmth', percent: -20 }, 'cooler tones -20%'],
    [{ kind: 'crop', aspect: { width: 1, height: 1 }, keep: 1 }, 'cropped to 1:1'],
    [{ kind: 'crop', aspect: null, keep: 0.8 }, 'cropped to the centre (80% of each side)'],
    [{ kind: 'rotate', degrees: 270 }, 'rotated 90° counter-clockwise'],
    [{ kind: 'rotate', degrees: 180 }, 'rotated 180°'],
    [{ kind: 'flip', axis: 'horizontal' }, 'mirrored left to right'],
    [{ kind: 'grayscale' }, 'black and white'],
    [{ kind: 'blur_background', strength: 'medium' }, 'background blurred (medium), centre kept sharp'],
  ])('%j → %s', (operation, text) => {
    expect(describeEdit(operation).text).toBe(text);
  });

  it.each<[EditOperation, string, Record<string, string | number>]>([
    [{ kind: 'brightness', percent: 20 }, 'edit.brightness', { percent: '+20' }],
    [{ kind: 'warmth', percent: -15 }, 'edit.cooler', { percent: '-15' }],
    [
      { kind: 'crop', aspect: { width: 4, height: 5 }, keep: 1 },
      'edit.cropped_aspect',
      { width: 4, height: 5 },
    ],
    [{ kind: 'rotate', degrees: 90 }, 'edit.rotated_clockwise', {}],
    [{ kind: 'sepia' }, 'edit.sepia', {}],
    [{ kind: 'blur', strength: 'strong' }, 'edit.blur', { strength: 'strong' }],
  ])('%j has the stable code %s and its params, for the app to word', (operation, code, params) => {
    expect(describeEdit(operation)).toMatchObject({ code, params });
  });
});
