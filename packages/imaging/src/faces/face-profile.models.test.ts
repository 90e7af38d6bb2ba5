import { describe, expect, it } from 'vitest';
import { averageDescriptor, median } from './face-descriptors.models.js';
import {
  alignmentTransform,
  buildFaceProfile,
  canonicalShape,
  descriptorSimilarity,
  pickReferenceForYaw,
  type ProfilePhoto,
} from './face-profile.models.js';
import type { AnalysedFace, Point3 } from './faces.types.js';

/** A 468-point mesh: points on a grid, eye corners placed where the real mesh has them. */
function mesh(transform: (x: number, y: number) => [number, number] = (x, y) => [x, y]): Point3[] {
  const points: Point3[] = Array.from({ length: 468 }, (_, i) => {
    const [x, y] = transform(100 + (i % 20) * 5, 100 + Math.floor(i / 20) * 5);
    return [x, y, 0];
  });
  const place = (index: number, x: number, y: number) => {
    const [tx, ty] = transform(x, y);
    points[index] = [tx, ty, 0];
  };
  place(33, 120, 150); // right eye, outer and inner corner
  place(133, 140, 150);
  place(362, 160, 150); // left eye, inner and outer corner
  place(263, 180, 150);
  place(234, 100, 170); // cheeks and chin
  place(454, 200, 170);
  place(152, 150, 230);
  return points;
}

function face(overrides: Partial<AnalysedFace> = {}): AnalysedFace {
  const m = overrides.mesh ?? mesh();
  const p = m[0] ?? [0, 0, 0];
  return {
    box: { x: 100, y: 100, width: 300, height: 300 },
    score: 0.99,
    detectionScore: 0.99,
    meshScore: 0.99,
    mesh: m,
    landmarks: {
      rightEyeOuter: p,
      rightEyeInner: p,
      leftEyeInner: p,
      leftEyeOuter: p,
      rightEyeUpper: p,
      rightEyeLower: p,
      leftEyeUpper: p,
      leftEyeLower: p,
      rightBrowInner: p,
      leftBrowInner: p,
      noseBridge: p,
      noseTip: p,
      mouthRight: p,
      mouthLeft: p,
      chin: p,
      rightCheek: p,
      leftCheek: p,
    },
    descriptor: [1, 2, 3, 4],
    yaw: 0,
    pitch: 0,
    roll: 0,
    crop: { meanLuminance: 120, sharpness: 600, noseBridgeLineContrast: 1 },
    ...overrides,
  };
}

function profilePhoto(photoId: string, faces: AnalysedFace[]): ProfilePhoto {
  return {
    photoId,
    analysis: {
      image: { width: 1024, height: 1024, originalWidth: 2048, originalHeight: 2048, meanLuminance: 110 },
      faces,
    },
  };
}

describe('descriptors', () => {
  it('averages directions and keeps the mean length', () => {
    const average = averageDescriptor([
      [3, 0],
      [0, 5],
    ]);
    expect(Math.hypot(...average)).toBeCloseTo(4, 6);
    expect(average[0]).toBeCloseTo(average[1] ?? 0, 6);
    expect(averageDescriptor([])).toEqual([]);
  });

  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe('canonical landmark frame', () => {
  it('is the same for a face moved, scaled and tilted in the photo', () => {
    const angle = 0.3;
    const moved = mesh((x, y) => [
      40 + 2 * (x * Math.cos(angle) - y * Math.sin(angle)),
      70 + 2 * (x * Math.sin(angle) + y * Math.cos(angle)),
    ]);
    const a = canonicalShape(mesh());
    const b = canonicalShape(moved);
    for (let i = 0; i < a.length; i += 1) {
      expect(b[i]?.[0]).toBeCloseTo(a[i]?.[0] ?? 0, 6);
      expect(b[i]?.[1]).toBeCloseTo(a[i]?.[1] ?? 0, 6);
    }
    // Eye centres 40 px apart at (130, 150) and (170, 150): the chin is 80 px = 2 units below.
    expect(a[152]).toEqual([0, 2]);
  });

  it('maps the eye centres to fixed places of an aligned crop', () => {
    const tilted = mesh((x, y) => [
      x * Math.cos(0.2) - y * Math.sin(0.2),
      x * Math.sin(0.2) + y * Math.cos(0.2),
    ]);
    const [a, b, c, d, e, f] = alignmentTransform(tilted, 256);
    const apply = ([x, y]: [number, number]) => [a * x + b * y + e, c * x + d * y + f];
    const centre = (i: number, j: number): [number, number] => [
      ((tilted[i]?.[0] ?? 0) + (tilted[j]?.[0] ?? 0)) / 2,
      ((tilted[i]?.[1] ?? 0) + (tilted[j]?.[1] ?? 0)) / 2,
    ];
    const [rx, ry] = apply(centre(33, 133));
    const [lx, ly] = apply(centre(362, 263));
    expect(rx).toBeCloseTo(0.35 * 256, 6);
    expect(lx).toBeCloseTo(0.65 * 256, 6);
    expect(ry).toBeCloseTo(0.4 * 256, 6);
    expect(ly).toBeCloseTo(0.4 * 256, 6);
  });
});

describe('face profile', () => {
  const photos = [
    profilePhoto('front-sharp', [
      face({ crop: { meanLuminance: 120, sharpness: 900, noseBridgeLineContrast: 1 } }),
    ]),
    profilePhoto('front-soft', [
      face({ crop: { meanLuminance: 120, sharpness: 80, noseBridgeLineContrast: 1 } }),
    ]),
    profilePhoto('front-dark', [
      face({ crop: { meanLuminance: 40, sharpness: 700, noseBridgeLineContrast: 1 } }),
    ]),
    profilePhoto('front-ok', [
      face({ crop: { meanLuminance: 110, sharpness: 500, noseBridgeLineContrast: 1 } }),
    ]),
    profilePhoto('side-left', [face({ yaw: -0.7 })]),
    profilePhoto('side-right', [face({ yaw: 0.6, descriptor: [1, 2, 3, 5] })]),
    profilePhoto('two-people', [face(), face()]),
    profilePhoto('nobody', []),
  ];

  it('keeps photos with exactly one face and ranks the best per pose', () => {
    const profile = buildFaceProfile(photos);
    expect(profile.photoCount).toBe(6);
    expect(profile.references.map((r) => r.photoId)).not.toContain('two-people');
    expect(profile.bestByPose.front).toEqual(['front-sharp', 'front-ok', 'front-dark']);
    expect(profile.bestByPose.side.sort()).toEqual(['side-left', 'side-right']);
    expect(profile.references.at(-1)?.photoId).toBe('front-soft');
  });

  it('averages the identity and reports how consistent the photos are', () => {
    const profile = buildFaceProfile(photos);
    expect(profile.descriptor).toHaveLength(4);
    expect(descriptorSimilarity(profile.descriptor, [1, 2, 3, 4])).toBeGreaterThan(0.9);
    expect(profile.consistency.min).toBeLessThanOrEqual(profile.consistency.median);
  });

  it('measures the landmark statistics on front faces only', () => {
    const profile = buildFaceProfile(photos);
    expect(profile.landmarks?.sampleCount).toBe(4);
    expect(profile.landmarks?.meanShape).toHaveLength(468);
    expect(profile.landmarks?.faceWidthRatio).toBeCloseTo(2.5, 6);
    expect(profile.landmarks?.faceHeightRatio).toBeCloseTo(2, 6);
    expect(Math.max(...(profile.landmarks?.spread ?? [1]))).toBeCloseTo(0, 6);
  });

  it('picks the reference turned like the target, the best of the equally turned', () => {
    const profile = buildFaceProfile(photos);
    expect(pickReferenceForYaw(profile, 0.05)?.photoId).toBe('front-sharp');
    expect(pickReferenceForYaw(profile, -0.8)?.photoId).toBe('side-left');
    expect(pickReferenceForYaw(profile, 0.5)?.photoId).toBe('side-right');
    expect(pickReferenceForYaw(buildFaceProfile([]), 0)).toBeNull();
  });

  it('is empty but well-formed without usable photos', () => {
    const profile = buildFaceProfile([profilePhoto('nobody', [])]);
    expect(profile).toMatchObject({ photoCount: 0, descriptor: [], references: [], landmarks: null });
    expect(profile.bestByPose).toEqual({ front: [], side: [] });
  });
});
