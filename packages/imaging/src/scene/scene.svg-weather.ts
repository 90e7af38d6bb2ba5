import { mixHex, shiftHex } from '../raster/colour.js';
import { pick, range, type Rng } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { type Layout, n, nextId, verticalGradient } from './scene.svg.js';

// ---------------------------------------------------------------------------------------------------
// Water, flowers, weather

export function waterHighlights(
  plan: ScenePlan,
  layout: Layout,
  rng: Rng,
  calm: boolean,
): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const body: string[] = [];
  const depth = height - horizon;
  const highlight = mixHex(plan.palette.sky[plan.palette.sky.length - 1]!, '#ffffff', 0.35);
  const lines = calm ? 45 : 170;
  for (let i = 0; i < lines; i++) {
    const t = Math.pow(rng(), 1.6);
    const y = horizon + 2 + depth * t;
    const length = (calm ? 60 : 18) + width * (calm ? 0.2 : 0.07) * t * range(rng, 0.5, 1.5);
    const x = range(rng, -length, width);
    body.push(
      `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x + length)}" y2="${n(y)}" stroke="${highlight}" ` +
        `stroke-opacity="${n(range(rng, 0.08, calm ? 0.18 : 0.3))}" stroke-width="${n(0.6 + 2.2 * t)}" stroke-linecap="round"/>`,
    );
  }
  const light = layout.sun ?? layout.moon;
  if (light) {
    // The glitter path: short bright dashes in a column under the light, widening towards the viewer.
    const colour = layout.sun ? plan.palette.sun : '#f4f1e4';
    for (let i = 0; i < (calm ? 60 : 140); i++) {
      const t = Math.pow(rng(), 1.3);
      const y = horizon + 3 + depth * t;
      const spread = light.r * (0.8 + 3.2 * t);
      const x = light.x + range(rng, -spread, spread) * (1 - 0.5 * rng());
      const length = 6 + 40 * t * rng();
      body.push(
        `<line x1="${n(x - length / 2)}" y1="${n(y)}" x2="${n(x + length / 2)}" y2="${n(y)}" stroke="${colour}" ` +
          `stroke-opacity="${n(range(rng, 0.35, 0.9) * (1 - 0.5 * t))}" stroke-width="${n(1 + 2 * t)}" stroke-linecap="round"/>`,
      );
    }
  }
  return { defs: [], body };
}

export function flowersLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const body: string[] = [];
  const depth = height - horizon;
  const colours = [...plan.palette.accents, '#ffffff', '#ffd84d', shiftHex(plan.palette.accents[0]!, 30)];
  const grass = mixHex(plan.palette.ground, '#1d4a23', 0.3);
  const count = plan.moods.has('minimal') ? 200 : 900;
  const flowers: Array<{ x: number; y: number; t: number }> = [];
  for (let i = 0; i < count; i++) {
    const t = Math.pow(rng(), 0.7);
    flowers.push({ x: range(rng, -10, width + 10), y: horizon + 4 + depth * t, t });
  }
  flowers.sort((a, b) => a.y - b.y);
  // Grass blades under the flowers, thicker and taller towards the viewer.
  const blades: string[] = [];
  for (let i = 0; i < (plan.moods.has('minimal') ? 150 : 600); i++) {
    const t = Math.pow(rng(), 0.6);
    const y = horizon + depth * t + 6;
    const x = range(rng, 0, width);
    const h = 4 + 34 * t;
    blades.push(
      `M ${n(x)} ${n(y)} q ${n(range(rng, -4, 4))} ${n(-h * 0.6)} ${n(range(rng, -8, 8))} ${n(-h)}`,
    );
  }
  body.push(
    `<path d="${blades.join(' ')}" stroke="${grass}" stroke-width="1.6" fill="none" stroke-opacity="0.7"/>`,
  );
  // Far away the flowers are only specks of colour, thickest near the horizon.
  const specks = new Map<string, string[]>();
  for (let i = 0; i < (plan.moods.has('minimal') ? 400 : 2500); i++) {
    const t = Math.pow(rng(), 1.8) * 0.6;
    const colour = pick(rng, colours);
    const list = specks.get(colour) ?? [];
    list.push(`M ${n(range(rng, 0, width))} ${n(horizon + 3 + depth * t)} h ${n(1 + 4 * t)}`);
    specks.set(colour, list);
  }
  for (const [colour, list] of specks) {
    body.push(
      `<path d="${list.join(' ')}" stroke="${colour}" stroke-width="${n(1.5 + depth * 0.004)}" stroke-linecap="round" fill="none"/>`,
    );
  }
  for (const { x, y, t } of flowers) {
    const size = 2.5 + 22 * t * t;
    const colour = pick(rng, colours);
    const petals: string[] = [];
    const rotation = rng() * 72;
    for (let p = 0; p < 5; p++) {
      const angle = ((rotation + p * 72) * Math.PI) / 180;
      petals.push(
        `<ellipse cx="${n(x + Math.cos(angle) * size * 0.55)}" cy="${n(y + Math.sin(angle) * size * 0.4)}" rx="${n(size * 0.5)}" ry="${n(size * 0.34)}" ` +
          `transform="rotate(${n(rotation + p * 72)} ${n(x + Math.cos(angle) * size * 0.55)} ${n(y + Math.sin(angle) * size * 0.4)})"/>`,
      );
    }
    if (size > 6) {
      body.push(
        `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x + range(rng, -3, 3))}" y2="${n(y + size * 2)}" stroke="${grass}" stroke-width="${n(size * 0.12)}"/>`,
      );
    }
    body.push(`<g fill="${colour}" fill-opacity="0.95">${petals.join('')}</g>`);
    body.push(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(size * 0.22)}" fill="${colour === '#ffd84d' ? '#a0521d' : '#ffd84d'}"/>`,
    );
  }
  return { defs: [], body };
}

export function rainLayer(layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const lines: string[] = [];
  for (let i = 0; i < 700; i++) {
    const x = range(rng, -100, width);
    const y = range(rng, -50, height);
    const length = range(rng, 12, 36);
    lines.push(`M ${n(x)} ${n(y)} l ${n(length * 0.25)} ${n(length)}`);
  }
  return {
    defs: [],
    body: [`<path d="${lines.join(' ')}" stroke="#dfe8f5" stroke-opacity="0.28" stroke-width="1.1"/>`],
  };
}

/** Synthwave floor: magenta perspective grid below the horizon. */
export function neonGridLayer(layout: Layout): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const lines: string[] = [];
  const depth = height - horizon;
  for (let i = 1; i < 16; i++) {
    const y = horizon + depth * Math.pow(i / 15, 2.2);
    lines.push(`M 0 ${n(y)} L ${width} ${n(y)}`);
  }
  const cx = width / 2;
  for (let i = -14; i <= 14; i++) {
    lines.push(`M ${n(cx + i * width * 0.012)} ${n(horizon)} L ${n(cx + i * width * 0.16)} ${height}`);
  }
  const id = nextId('floor');
  return {
    defs: [
      verticalGradient(
        id,
        [
          [0, '#12062a'],
          [1, '#2a0a4f'],
        ],
        horizon,
        height,
      ),
    ],
    body: [
      `<rect y="${n(horizon)}" width="${width}" height="${n(depth)}" fill="url(#${id})"/>`,
      `<path d="${lines.join(' ')}" stroke="#ff2bd6" stroke-width="2" stroke-opacity="0.85" fill="none"/>`,
    ],
  };
}
