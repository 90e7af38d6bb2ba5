import { describe, expect, it } from 'vitest';
import type { AnalysedFace } from '@mirra/imaging';
import { fitHomography, judgeLiveCheck, LIVE_CHECK_RULES } from './live-check.models.js';

type Point3 = AnalysedFace['mesh'][number];

// A synthetic head: points on a sphere-like surface with the nose standing out, so that a turn
// (a rotation in 3D, then a projection) moves near points more than far ones, as a head does.
const POINTS: [number, number, number][] = [];
for (let i = 0; i < 120; i += 1) {
  const a = (i / 120) * Math.PI * 2;
  const r = 40 + (i % 7) * 8;
  const x = Math.cos(a) * r;
  const y = Math.sin(a) * r * 1.3;
  const z = Math.sqrt(Math.max(0, 100 * 100 - x * x - y * y)) + (i % 5 === 0 ? 30 : 0);
  POINTS.push([x, y, z]);
}

function projected(yaw: number, planar = false): Point3[] {
  return POINTS.map(([x, y, z]) => {
    const depth = planar ? 0 : z;
    const rx = x * Math.cos(yaw) + depth * Math.sin(yaw);
    const rz = -x * Math.sin(yaw) + depth * Math.cos(yaw);
    const scale = 600 / (600 - rz);
    return [300 + rx * scale, 300 + y * scale, 0];
  });
}

function face(yaw: number, mesh: Point3[], descriptor = [0.1, 0.2, 0.3]) {
  const landmarks = {
    rightEyeOuter: [260, 280, 0],
    leftEyeOuter: [340, 280, 0],
  } as unknown as AnalysedFace['landmarks'];
  return { yaw, descriptor, mesh, landmarks };
}

describe('the live check rules', () => {
  it('fits a homography exactly to points moved by one', () => {
    const from: [number, number][] = POINTS.map(([x, y]) => [x + 300, y + 300]);
    const h = [1.1, 0.05, -12, -0.03, 0.95, 8, 0.0004, -0.0002, 1];
    const to = from.map(([x, y]): [number, number] => {
      const w = h[6]! * x + h[7]! * y + 1;
      return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
    });
    const fitted = fitHomography(from, to)!;
    fitted.forEach((value, i) => expect(value).toBeCloseTo(h[i]!, 5));
  });

  it('passes a head turned each way, and refuses a flat picture turned the same way as flat', () => {
    const head = [face(0, projected(0)), face(0.3, projected(0.3)), face(-0.3, projected(-0.3))];
    const alive = judgeLiveCheck(
      head.map((f) => [f]),
      [0.1, 0.2, 0.3],
    );
    expect(alive).toMatchObject({ passed: true, problems: [] });
    expect(alive.nonPlanarMotion).toBeGreaterThan(LIVE_CHECK_RULES.minNonPlanarMotion);

    // The same turn of a print: every point at one depth, so a plane's perspective explains it all
    // (the analyser's yaw is taken as reading a turn, the worst case).
    const print = [
      face(0, projected(0, true)),
      face(0.3, projected(0.3, true)),
      face(-0.3, projected(-0.3, true)),
    ];
    const flat = judgeLiveCheck(
      print.map((f) => [f]),
      [0.1, 0.2, 0.3],
    );
    expect(flat.problems).toEqual(['spoof.flat']);
  });

  it('refuses no turn, a turn to one side only, and a turned "straight" frame', () => {
    const frames = (yaws: number[]) => yaws.map((yaw) => [face(yaw, projected(yaw))]);
    expect(judgeLiveCheck(frames([0, 0, 0]), [0.1, 0.2, 0.3]).problems).toEqual(['pose.no_turn']);
    expect(judgeLiveCheck(frames([0, 0.3, 0.25]), [0.1, 0.2, 0.3]).problems).toEqual(['pose.no_turn']);
    expect(judgeLiveCheck(frames([0.35, 0.7, 0]), [0.1, 0.2, 0.3]).problems).toContain('pose.not_straight');
  });

  it('refuses a frame without a face, with two faces, or of someone else', () => {
    const one = face(0, projected(0));
    expect(judgeLiveCheck([[], [one], [one]], [0.1, 0.2, 0.3]).problems).toContain('face.none');
    expect(judgeLiveCheck([[one, one], [one], [one]], [0.1, 0.2, 0.3]).problems).toContain('face.multiple');
    const stranger = [0, 0.3, 0.15].map((yaw, i) => [
      face(i === 2 ? -0.3 : yaw, projected(i === 2 ? -0.3 : yaw), [10, -10, 10]),
    ]);
    expect(judgeLiveCheck(stranger, [0.1, 0.2, 0.3]).problems).toEqual(['face.different_person']);
  });
});
