import { GenerationStatus } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AnalysedFace,
  type FaceAnalysis,
  fingerprintDistance,
  MAX_COPY_DISTANCE,
  mirroredFingerprint,
} from '@mirra/imaging';
import {
  compactAnalysis,
  findCopies,
  isSameVerdict,
  judgeModelPhotos,
  modelPhotoKeys,
  modelStatusesAllowedBefore,
  modelTransitions,
} from './models.models.js';

const { NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED } = GenerationStatus;

/** A face that passes every check on its own; `descriptor` decides who it is. */
function face(descriptor: number[], overrides: Partial<AnalysedFace> = {}): AnalysedFace {
  const point = [0, 0, 0] as [number, number, number];
  return {
    box: { x: 150, y: 100, width: 200, height: 220 },
    score: 0.95,
    detectionScore: 0.95,
    meshScore: 0.95,
    mesh: Array.from(
      { length: 478 },
      (_, i) => [i + 0.123456, i * 2 + 0.987654, 0.5] as [number, number, number],
    ),
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
    descriptor,
    yaw: 0,
    pitch: 0,
    roll: 0,
    crop: { meanLuminance: 120, sharpness: 500, noseBridgeLineContrast: 1 },
    ...overrides,
  };
}

function photo(
  id: number,
  faces: AnalysedFace[],
  fingerprint: string | null = null,
): { id: number; analysis: FaceAnalysis; fingerprint: string | null } {
  return {
    id,
    fingerprint,
    analysis: {
      image: { width: 512, height: 512, originalWidth: 1024, originalHeight: 1024, meanLuminance: 110 },
      faces,
    },
  };
}

// Descriptor distance 1 is the same person (similarity 1), distance 20 somebody else (0).
const alice = (jitter = 0) => [jitter, 0, 0, 0];
const bob = () => [20, 0, 0, 0];

/** 256-bit fingerprints: `print(n)` differs from `print(0)` in its first n bits. */
const print = (flippedBits = 0, base = '0') => {
  const bits = base.repeat(256).split('');
  for (let i = 0; i < flippedBits; i++) bits[i] = bits[i] === '0' ? '1' : '0';
  return Array.from({ length: 64 }, (_, i) =>
    parseInt(bits.slice(i * 4, i * 4 + 4).join(''), 2).toString(16),
  ).join('');
};

describe('model status changes', () => {
  it('trains from NEW, retries after ERROR or FAILED, and never leaves COMPLETED', () => {
    expect(modelTransitions[NEW]).toEqual([IN_QUEUE]);
    expect(modelTransitions[COMPLETED]).toEqual([]);
    expect(modelStatusesAllowedBefore(IN_QUEUE).sort()).toEqual([NEW, IN_PROGRESS, ERROR, FAILED].sort());
    expect(modelStatusesAllowedBefore(COMPLETED)).toEqual([IN_PROGRESS]);
    expect(modelStatusesAllowedBefore(IN_PROGRESS)).toEqual([IN_QUEUE]);
  });
});

describe('judging a model’s photos', () => {
  it('flags the one stray photo among one person’s, whatever the order', () => {
    for (const strayAt of [0, 7, 14]) {
      const photos = Array.from({ length: 15 }, (_, i) =>
        photo(i, [face(i === strayAt ? bob() : alice(i % 3))]),
      );
      const verdicts = judgeModelPhotos(photos, null);
      for (const [id, verdict] of verdicts) {
        if (id === strayAt) expect(verdict).toMatchObject({ ok: false, problems: ['face.different_person'] });
        else expect(verdict, `photo ${id}`).toMatchObject({ ok: true, problems: [] });
      }
    }
  });

  it('judges a first photo alone as fine: there is nobody to differ from yet', () => {
    const verdicts = judgeModelPhotos([photo(1, [face(bob())])], null);
    expect(verdicts.get(1)).toMatchObject({ ok: true, problems: [] });
  });

  it('breaks a tie between two people in favour of the earlier photos', () => {
    const verdicts = judgeModelPhotos([photo(1, [face(alice())]), photo(2, [face(bob())])], null);
    expect(verdicts.get(1)?.ok).toBe(true);
    expect(verdicts.get(2)?.problems).toEqual(['face.different_person']);
  });

  it('leaves photos with other problems out of the group but still says everything wrong with them', () => {
    const photos = [
      photo(1, [face(alice())]),
      photo(2, [face(alice())]),
      // Blurred photos of somebody else: not the group; the blur is reported, because whether a
      // blurred face is somebody else cannot be told.
      photo(3, [face(bob(), { crop: { meanLuminance: 120, sharpness: 5, noseBridgeLineContrast: 1 } })]),
      photo(4, [face(bob(), { crop: { meanLuminance: 120, sharpness: 5, noseBridgeLineContrast: 1 } })]),
      photo(5, []),
    ];
    const verdicts = judgeModelPhotos(photos, null);
    expect(verdicts.get(1)?.ok).toBe(true);
    expect(verdicts.get(3)?.problems).toEqual(['photo.blurry']);
    expect(verdicts.get(5)?.problems).toEqual(['face.none']);
  });

  it('judges against a trained model’s identity when there is one', () => {
    const verdicts = judgeModelPhotos([photo(1, [face(bob())]), photo(2, [face(alice(1))])], alice());
    expect(verdicts.get(1)?.problems).toEqual(['face.different_person']);
    expect(verdicts.get(2)?.ok).toBe(true);
  });
});

describe('copies of a photo the model already has', () => {
  it('refuses every later copy of a picture (fingerprints up to 40 bits apart), keeping the first', () => {
    const photos = [
      photo(1, [face(alice())], print(0)),
      photo(2, [face(alice(1))], print(12)),
      photo(3, [face(alice())], print(40)),
      photo(4, [face(alice())], print(41)),
      // Half the bits apart from the first, and from its mirror too.
      photo(5, [face(alice())], '5'.repeat(64)),
    ];
    const verdicts = judgeModelPhotos(photos, null);
    expect(verdicts.get(1)).toMatchObject({ ok: true, problems: [] });
    expect(verdicts.get(2)).toMatchObject({ ok: false, problems: ['photo.duplicate'] });
    expect(verdicts.get(3)).toMatchObject({ ok: false, problems: ['photo.duplicate'] });
    // Another picture of the same person counts.
    expect(verdicts.get(4)).toMatchObject({ ok: true, problems: [] });
    expect(verdicts.get(5)).toMatchObject({ ok: true, problems: [] });
    expect([...verdicts.values()].filter((verdict) => verdict.ok)).toHaveLength(3);
  });

  it('eighteen copies of one photo make one good photo', () => {
    const photos = Array.from({ length: 18 }, (_, i) => photo(i, [face(alice())], print(i % 3)));
    const verdicts = judgeModelPhotos(photos, null);
    expect([...verdicts.values()].filter((verdict) => verdict.ok)).toHaveLength(1);
    expect(verdicts.get(0)?.ok).toBe(true);
  });

  it('does not call alike pictures of two different people copies (the face is the second signal)', () => {
    expect(findCopies([photo(1, [face(alice())], print(0)), photo(2, [face(bob())], print(3))])).toEqual(
      new Set(),
    );
    expect(findCopies([photo(1, [face(alice())], print(0)), photo(2, [face(alice())], print(3))])).toEqual(
      new Set([2]),
    );
  });

  it('refuses a mirrored copy of a picture, re-encoded or not', () => {
    const picture = print(100);
    const mirrored = mirroredFingerprint(picture);
    expect(fingerprintDistance(mirrored, picture)).toBeGreaterThan(MAX_COPY_DISTANCE);
    const reencoded =
      mirrored.slice(0, 60) + (parseInt(mirrored.slice(60), 16) ^ 0xffff).toString(16).padStart(4, '0');
    expect(findCopies([photo(1, [face(alice())], picture), photo(2, [face(alice())], mirrored)])).toEqual(
      new Set([2]),
    );
    expect(findCopies([photo(1, [face(alice())], picture), photo(2, [face(alice(1))], reencoded)])).toEqual(
      new Set([2]),
    );
    // The mirror of another person's alike picture is still not a copy.
    expect(findCopies([photo(1, [face(alice())], picture), photo(2, [face(bob())], mirrored)])).toEqual(
      new Set(),
    );
  });

  it('never calls a photo without a fingerprint (stored before them) a copy', () => {
    expect(findCopies([photo(1, [face(alice())], null), photo(2, [face(alice())], print(0))])).toEqual(
      new Set(),
    );
  });

  it('lets a sharp copy of a blurred first shot count: only photos passing the other checks are compared', () => {
    const blurred = face(alice(), { crop: { meanLuminance: 120, sharpness: 5, noseBridgeLineContrast: 1 } });
    const verdicts = judgeModelPhotos(
      [
        photo(1, [blurred], print(0)),
        photo(2, [face(alice())], print(2)),
        photo(3, [face(alice())], print(4)),
      ],
      null,
    );
    expect(verdicts.get(1)?.problems).toEqual(['photo.blurry']);
    expect(verdicts.get(2)).toMatchObject({ ok: true, problems: [] });
    expect(verdicts.get(3)).toMatchObject({ ok: false, problems: ['photo.duplicate'] });
  });

  it('refuses copies among a trained model’s photos too', () => {
    const verdicts = judgeModelPhotos(
      [photo(1, [face(alice())], print(0)), photo(2, [face(alice(1))], print(5))],
      alice(),
    );
    expect(verdicts.get(1)?.ok).toBe(true);
    expect(verdicts.get(2)).toMatchObject({ ok: false, problems: ['photo.duplicate'] });
  });
});

describe('stored analyses and verdicts', () => {
  it('keeps the main face whole (rounded) and only the boxes of other faces', () => {
    const compact = compactAnalysis(photo(1, [face([0.1234567, 2]), face([5, 5])]).analysis);
    expect(compact.faces[0]!.descriptor).toEqual([0.12346, 2]);
    expect(compact.faces[0]!.mesh[1]).toEqual([1.1, 3, 0.5]);
    expect(compact.faces[1]).toMatchObject({ mesh: [], descriptor: [], box: { width: 200 } });
    expect(compactAnalysis(photo(1, []).analysis).faces).toEqual([]);
  });

  it('compares verdicts by what is stored', () => {
    const verdict = { ok: true, problems: [], tips: ['pose.front'], pose: 'front' };
    expect(isSameVerdict(verdict, { ...verdict })).toBe(true);
    expect(isSameVerdict(verdict, { ...verdict, tips: ['pose.front', 'face.glasses'] })).toBe(false);
    expect(isSameVerdict(verdict, { ...verdict, ok: false })).toBe(false);
  });

  it('keeps every file of a model under the owner’s prefix', () => {
    expect(modelPhotoKeys(7, 'm1', 'p1', 'jpg')).toEqual({
      original: 'models/7/m1/photos/p1.jpg',
      thumbnail: 'models/7/m1/photos/p1.thumb.webp',
      aligned: 'models/7/m1/aligned/p1.png',
    });
  });
});
