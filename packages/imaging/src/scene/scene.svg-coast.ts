import { mixHex } from '../raster/colour.js';
import { range, type Rng } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { ridge, ridgePath, sandColour } from './scene.svg-land.js';
import { type Layout, n, nextId, verticalGradient } from './scene.svg.js';

// ---------------------------------------------------------------------------------------------------
// Beach and palms

/** Sand in the foreground with a wet band and lines of foam where the waves run out. */
export function beachLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const sand = sandColour(plan);
  const top = height * range(rng, 0.8, 0.86);
  const points = ridge(rng, width, width * 1.4, 2, false);
  const id = nextId('sand');
  const wet = mixHex(sand, plan.palette.water, 0.35);
  const defs = [
    verticalGradient(
      id,
      [
        [0, wet],
        [0.18, mixHex(sand, '#ffffff', 0.1)],
        [1, mixHex(sand, plan.palette.near, 0.25)],
      ],
      top,
      height,
    ),
  ];
  const edge = ridgePath(points, width, top, height * 0.05, height);
  const body = [`<path d="${edge}" fill="url(#${id})"/>`];
  // Foam: the same edge, offset up a little, as soft white strokes.
  const step = width / (points.length - 2);
  const min = Math.min(...points);
  const span = Math.max(1e-6, Math.max(...points) - min);
  for (let k = 0; k < 3; k++) {
    const offset = 3 + k * height * 0.012;
    let d = '';
    points.forEach((v, i) => {
      const y = top + height * 0.05 * (1 - (v - min) / span) - offset + Math.sin(i * 0.7 + k) * 1.5;
      d += `${i === 0 ? 'M' : 'L'} ${n(i * step)} ${n(y)} `;
    });
    body.push(
      `<path d="${d}" fill="none" stroke="#ffffff" stroke-opacity="${n(0.55 - k * 0.15)}" stroke-width="${n(3 - k * 0.8)}" stroke-linejoin="round"/>`,
    );
  }
  return { defs, body };
}

/** Palm silhouettes leaning in from one side: tapered curved trunks and arching fronds. */
export function palmsLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const colour = mixHex(plan.palette.near, '#000000', plan.time === 'day' ? 0.1 : 0.35);
  const side = rng() < 0.5 ? -1 : 1;
  const count = plan.moods.has('minimal') ? 1 : 2 + Math.floor(rng() * 2);
  const trunks: string[] = [];
  const shapes: string[] = [];
  for (let i = 0; i < count; i++) {
    const baseX = side < 0 ? width * range(rng, 0.02, 0.22) : width * range(rng, 0.78, 0.98);
    const baseY = height + 5;
    const h = height * range(rng, 0.5, 0.78);
    const lean = -side * width * range(rng, 0.06, 0.16);
    const topX = baseX + lean;
    const topY = baseY - h;
    const ctrlX = baseX + lean * 0.15;
    const ctrlY = baseY - h * 0.55;
    // Trunk: two offset quadratic curves, wide at the base, narrow at the crown.
    const wBase = h * 0.035;
    const wTop = h * 0.014;
    trunks.push(
      `M ${n(baseX - wBase)} ${n(baseY)} Q ${n(ctrlX - wBase * 0.7)} ${n(ctrlY)} ${n(topX - wTop)} ${n(topY)} ` +
        `L ${n(topX + wTop)} ${n(topY)} Q ${n(ctrlX + wBase * 0.7)} ${n(ctrlY)} ${n(baseX + wBase)} ${n(baseY)} Z`,
    );
    const fronds = 8 + Math.floor(rng() * 3);
    for (let f = 0; f < fronds; f++) {
      // Each frond: an arching spine (quadratic curve: up and out, then drooping) with leaflets
      // along both sides, shorter towards the tip.
      const angle = Math.PI * (f / (fronds - 1)) + range(rng, -0.12, 0.12);
      const dirX = -Math.cos(angle);
      const length = h * range(rng, 0.26, 0.36);
      const rise = length * range(rng, 0.1, 0.35) * Math.sin(angle);
      const cx = topX + dirX * length * 0.55;
      const cy = topY - rise - length * 0.1;
      const ex = topX + dirX * length;
      const ey = topY + length * range(rng, 0.25, 0.55) * (1 - 0.5 * Math.sin(angle));
      shapes.push(`M ${n(topX)} ${n(topY)} Q ${n(cx)} ${n(cy)} ${n(ex)} ${n(ey)}`);
      const leaflets = 16;
      for (let k = 2; k < leaflets; k++) {
        const t = k / leaflets;
        const px = (1 - t) * (1 - t) * topX + 2 * (1 - t) * t * cx + t * t * ex;
        const py = (1 - t) * (1 - t) * topY + 2 * (1 - t) * t * cy + t * t * ey;
        const tx = 2 * (1 - t) * (cx - topX) + 2 * t * (ex - cx);
        const ty = 2 * (1 - t) * (cy - topY) + 2 * t * (ey - cy);
        const tl = Math.hypot(tx, ty) || 1;
        const leafLength = length * 0.22 * (1 - t * 0.7);
        for (const sideSign of [-1, 1]) {
          // Perpendicular to the spine, swept back and hanging down a little.
          const lx = (-ty / tl) * sideSign * 0.8 + (tx / tl) * 0.45;
          const ly = (tx / tl) * sideSign * 0.8 + (ty / tl) * 0.45 + 0.55;
          shapes.push(`M ${n(px)} ${n(py)} L ${n(px + lx * leafLength)} ${n(py + ly * leafLength)}`);
        }
      }
    }
  }
  return {
    defs: [],
    body: [
      `<path d="${trunks.join(' ')}" fill="${colour}"/>`,
      `<path d="${shapes.join(' ')}" fill="none" stroke="${colour}" stroke-width="${n(height * 0.0032)}" stroke-linecap="round"/>`,
    ],
  };
}
