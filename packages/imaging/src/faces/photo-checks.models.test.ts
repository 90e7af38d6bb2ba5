import { describe, expect, it } from 'vitest';
import { descriptorSimilarity } from './face-descriptors.models.js';
import type { AnalysedFace, FaceAnalysis, Point3 } from './faces.types.js';
import {
  checkPhoto,
  classifyPose,
  DEFAULT_PHOTO_CHECK_THRESHOLDS as T,
  type PhotoCheckInput,
} from './photo-checks.models.js';

const IDENTITY = Array.from({ length: 1024 }, (_, i) => Math.sin(i) * 0.4);

/**
 * A descriptor whose similarity to IDENTITY is `similarity` (Human's distance scale), moved along
 * one `axis`: descriptors moved along different axes are further from each other than from IDENTITY.
 */
function descriptorAt(similarity: number, axis = 0): number[] {
  // similarity = (0.8 − √(25·S)/100) / 0.6, S the squared distance, put on one component.
  const distance = Math.sqrt(((0.8 - 0.6 * similarity) * 100) ** 2 / 25);
  return IDENTITY.map((value, i) => (i === axis ? value + distance : value));
}

const point: Point3 = [0, 0, 0];

function face(
  overrides: Omit<Partial<AnalysedFace>, 'crop'> & { crop?: Partial<AnalysedFace['crop']> } = {},
): AnalysedFace {
  const { crop, ...rest } = overrides;
  return {
    box: { x: 300, y: 200, width: 400, height: 400 },
    score: 0.99,
    detectionScore: 0.99,
    meshScore: 0.99,
    mesh: [],
    landmarks: {
      rightEyeOuter: point,
      rightEyeInner: point,
      leftEyeInner: point,
      leftEyeOuter: point,
      rightEyeUpper: point,
      rightEyeLower: point,
      leftEyeUpper: point,
      leftEyeLower: point,
      rightBrowInner: point,
      leftBrowInner: point,
      noseBridge: point,
      noseTip: point,
      mouthRight: point,
      mouthLeft: point,
      chin: point,
      rightCheek: point,
      leftCheek: point,
    },
    descriptor: IDENTITY,
    yaw: 0,
    pitch: 0,
    roll: 0,
    crop: { meanLuminance: 120, sharpness: 500, noseBridgeLineContrast: 1, ...crop },
    ...rest,
  };
}

/** A square photo of `original` px, analysed (like the analyser does) at 1024 px at most. */
function photo(faces: AnalysedFace[], references: number[][] = [], original = 1024): PhotoCheckInput {
  const side = Math.min(original, 1024);
  const analysis: FaceAnalysis = {
    image: {
      width: side,
      height: side,
      originalWidth: original,
      originalHeight: original,
      meanLuminance: 110,
    },
    faces,
  };
  return { analysis, references };
}

describe('photo checks for the personal model', () => {
  it('accepts a sharp, well-lit, frontal photo of one face and says it is a front one', () => {
    expect(checkPhoto(photo([face()], [IDENTITY]))).toMatchObject({
      ok: true,
      problems: [],
      tips: ['pose.front'],
      pose: 'front',
    });
  });

  it('refuses a photo without a face, with nothing else to say', () => {
    expect(checkPhoto(photo([]))).toEqual({
      ok: false,
      problems: ['face.none'],
      tips: [],
      pose: null,
      measurements: null,
    });
  });

  it.each([
    ['a second face as large', 400, false],
    ['a second face a quarter as wide', 100, false],
    ['a tiny face far behind', 99, true],
  ])('refuses a photo with %s unless it is tiny', (_, side, isOk) => {
    const second = face({ box: { x: 0, y: 0, width: side, height: side }, descriptor: descriptorAt(0.2, 5) });
    const check = checkPhoto(photo([face(), second]));
    expect(check.ok).toBe(isOk);
    expect(check.problems.includes('face.multiple')).toBe(!isOk);
  });

  it.each([
    ['10 % of the shorter side', 103, 1024, true],
    ['just under 10 %', 101, 1024, false],
    ['10 % of a 2048 px original, analysed at 1024', 103, 2048, true],
    ['20 % of a 400 px photo, but only 80 px', 80, 400, false],
    ['20 % of a 500 px photo (100 px)', 100, 500, true],
  ])('judges face size: %s', (_, side, original, isOk) => {
    const check = checkPhoto(photo([face({ box: { x: 0, y: 0, width: side, height: side } })], [], original));
    expect(check.problems.includes('face.too_small')).toBe(!isOk);
  });

  it.each([
    [T.minSharpness, true],
    [T.minSharpness - 0.1, false],
    [6, false],
  ])('refuses a blurry face (sharpness %d)', (sharpness, isOk) => {
    const check = checkPhoto(photo([face({ crop: { sharpness } })]));
    expect(check.ok).toBe(isOk);
    expect(check.problems).toEqual(isOk ? [] : ['photo.blurry']);
  });

  it('flags low light as a tip, never as a problem', () => {
    const dark = checkPhoto(photo([face({ crop: { meanLuminance: 40 } })]));
    expect(dark).toMatchObject({ ok: true, problems: [], tips: ['pose.front', 'photo.low_light'] });
    const lit = checkPhoto(photo([face({ crop: { meanLuminance: T.lowLightLuminance } })]));
    expect(lit.tips).not.toContain('photo.low_light');
  });

  it.each([
    [0, 'front'],
    [0.34, 'front'],
    [-0.34, 'front'],
    [0.35, 'side'],
    [-0.76, 'side'],
    [1.2, 'side'],
  ] as const)('classifies yaw %d rad as %s', (yaw, pose) => {
    expect(classifyPose(yaw)).toBe(pose);
    const check = checkPhoto(photo([face({ yaw })]));
    expect(check).toMatchObject({ ok: true, pose });
    expect(check.tips).toContain(`pose.${pose}`);
  });

  it('notes glasses as a tip from the nose-bridge line contrast', () => {
    const glasses = checkPhoto(photo([face({ crop: { noseBridgeLineContrast: 15 } })]));
    expect(glasses).toMatchObject({ ok: true, tips: ['pose.front', 'face.glasses'] });
    const bare = checkPhoto(photo([face({ crop: { noseBridgeLineContrast: 2.4 } })]));
    expect(bare.tips).toEqual(['pose.front']);
  });

  it('refuses somebody else by the median similarity to the references', () => {
    const same = [descriptorAt(0.95, 1), descriptorAt(0.9, 2), descriptorAt(0.97, 3)];
    expect(checkPhoto(photo([face({ descriptor: descriptorAt(0.2) })], same)).problems).toEqual([
      'face.different_person',
    ]);
    expect(checkPhoto(photo([face({ descriptor: descriptorAt(0.9) })], same)).ok).toBe(true);
    // One stray reference (another person slipped in) does not turn the verdict.
    const withStray = [...same, descriptorAt(0.1, 4).map((value) => -value)];
    expect(checkPhoto(photo([face()], withStray)).ok).toBe(true);
  });

  it('cannot tell a different person for the first photo of a model', () => {
    const check = checkPhoto(photo([face({ descriptor: descriptorAt(0.1) })], []));
    expect(check.ok).toBe(true);
    expect(check.measurements?.similarity).toBeNull();
  });

  it('lists every problem of a photo at once', () => {
    const check = checkPhoto(
      photo(
        [
          face({
            box: { x: 0, y: 0, width: 60, height: 60 },
            crop: { sharpness: 3 },
            descriptor: descriptorAt(0.1),
          }),
          face({ box: { x: 500, y: 0, width: 58, height: 58 } }),
        ],
        [IDENTITY],
      ),
    );
    // Whether it is somebody else is not judged on a blurred face: the blur is what to fix.
    expect(check.problems).toEqual(['face.multiple', 'face.too_small', 'photo.blurry']);
  });

  it('reports blur, not somebody else, for a blurred face that drifts from the references', () => {
    const blurred = face({ crop: { sharpness: 8 }, descriptor: descriptorAt(0.3) });
    expect(checkPhoto(photo([blurred], [IDENTITY])).problems).toEqual(['photo.blurry']);
    // The same drift on a sharp face is somebody else.
    const sharp = face({ descriptor: descriptorAt(0.3) });
    expect(checkPhoto(photo([sharp], [IDENTITY])).problems).toEqual(['face.different_person']);
  });

  it('reports the same face twice, near itself, as a shaken (blurry) photo, not other people', () => {
    const main = face({ box: { x: 300, y: 200, width: 150, height: 150 } });
    const ghost = face({
      box: { x: 380, y: 205, width: 136, height: 136 },
      descriptor: descriptorAt(0.8, 3),
    });
    expect(checkPhoto(photo([main, ghost], [IDENTITY])).problems).toEqual(['photo.blurry']);
    // Somebody else beside the person is another person, however near.
    const other = face({
      box: { x: 380, y: 205, width: 136, height: 136 },
      descriptor: descriptorAt(0.25, 3),
    });
    expect(checkPhoto(photo([main, other], [IDENTITY])).problems).toEqual(['face.multiple']);
    // The same face far away (a mirror, a photo on the wall) is not a shake.
    const far = face({ box: { x: 800, y: 700, width: 136, height: 136 }, descriptor: descriptorAt(0.8, 3) });
    expect(checkPhoto(photo([main, far], [IDENTITY])).problems).toEqual(['face.multiple']);
  });
});

describe('descriptor similarity', () => {
  it('is 1 for the same descriptor and follows Human’s distance scale', () => {
    expect(descriptorSimilarity(IDENTITY, IDENTITY)).toBe(1);
    for (const target of [0.1, 0.35, 0.5, 0.9]) {
      expect(descriptorSimilarity(IDENTITY, descriptorAt(target))).toBeCloseTo(target, 6);
    }
  });

  it('is 0 for descriptors that cannot be compared', () => {
    expect(descriptorSimilarity([], [])).toBe(0);
    expect(descriptorSimilarity([1, 2], [1, 2, 3])).toBe(0);
  });
});
