import { mixHex } from '../raster/colour.js';
import { fractalLine, pick, range, type Rng } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { type Layout, n, nextId, verticalGradient } from './scene.svg.js';

// ---------------------------------------------------------------------------------------------------
// Land

/** Ridge line: ridged fractal noise (1 - |2n - 1|) gives sharp peaks and soft valleys. */
export function ridge(rng: Rng, width: number, cell: number, octaves: number, sharp: boolean): number[] {
  const samples = Math.ceil(width / 4) + 2;
  const line = fractalLine(rng, samples, { cell: cell / 4, octaves });
  return Array.from(line, (v) => (sharp ? 1 - Math.abs(2 * v - 1) : v));
}

export function ridgePath(
  points: number[],
  width: number,
  top: number,
  amplitude: number,
  bottom: number,
): string {
  const step = width / (points.length - 2);
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = Math.max(1e-6, max - min);
  let d = `M 0 ${n(bottom)}`;
  points.forEach((v, i) => {
    d += ` L ${n(i * step)} ${n(top + amplitude * (1 - (v - min) / span))}`;
  });
  return `${d} L ${n(width)} ${n(bottom)} Z`;
}

export function mountainLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const layers = plan.moods.has('minimal') ? 2 : 4;
  const snowy = plan.features.has('snow');
  const skyAtHorizon = plan.palette.sky[plan.palette.sky.length - 1]!;
  for (let k = 0; k < layers; k++) {
    const t = k / (layers - 1);
    const top = horizon - height * (0.36 - 0.2 * t) + height * range(rng, -0.03, 0.03);
    const amplitude = height * (0.2 - 0.08 * t);
    const points = ridge(rng, width, width * (0.45 - 0.15 * t), 6, true);
    let colour = mixHex(plan.palette.far, plan.palette.near, t * 0.9);
    if (snowy) colour = mixHex(colour, '#dfe8f2', 0.35 * (1 - t));
    const haze = mixHex(colour, skyAtHorizon, 0.55 * (1 - t) + 0.12);
    const id = nextId('ridge');
    const stops: Array<[number, string, number?]> = snowy
      ? [
          [0, '#f7fbff'],
          [0.18, mixHex('#f7fbff', colour, 0.55)],
          [0.32, colour],
          [1, haze],
        ]
      : [
          [0, mixHex(colour, plan.palette.glow, 0.12)],
          [0.35, colour],
          [1, haze],
        ];
    defs.push(verticalGradient(id, stops, top, horizon + 2));
    body.push(`<path d="${ridgePath(points, width, top, amplitude, horizon + 2)}" fill="url(#${id})"/>`);
  }
  return { defs, body };
}

/** Rolling foreground slopes below mountains, so the picture doesn't end in a flat plain. */
export function foregroundSlopes(
  plan: ScenePlan,
  layout: Layout,
  rng: Rng,
): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const base = plan.features.has('snow')
    ? '#dfe8f2'
    : plan.features.has('desert')
      ? sandColour(plan)
      : plan.palette.ground;
  const snowy = plan.features.has('snow');
  for (let k = 0; k < 2; k++) {
    // The first slope rises a little above the horizon so no flat strip of plain shows under the ridges.
    const top = horizon + (height - horizon) * (-0.08 + 0.42 * k);
    const points = ridge(rng, width, width * 1.2, 3, false);
    const darken = snowy ? 0.08 + 0.1 * k : 0.45 + 0.25 * k;
    const colour = mixHex(
      mixHex(base, plan.palette.near, darken),
      plan.palette.sky[plan.palette.sky.length - 1]!,
      0.15 * (1 - k),
    );
    const id = nextId('slope');
    defs.push(
      verticalGradient(
        id,
        [
          [0, mixHex(colour, plan.palette.glow, 0.12)],
          [1, mixHex(colour, '#000000', 0.25)],
        ],
        top,
        height,
      ),
    );
    body.push(
      `<path d="${ridgePath(points, width, top, (height - horizon) * 0.25, height)}" fill="url(#${id})"/>`,
    );
  }
  return { defs, body };
}

export function hillsLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const green = plan.features.has('snow') ? '#e6eef7' : plan.palette.ground;
  for (let k = 0; k < 3; k++) {
    const t = k / 2;
    const top = horizon - height * (0.12 - 0.045 * k);
    const points = ridge(rng, width, width * 0.9, 3, false);
    const colour = mixHex(mixHex(plan.palette.far, green, 0.35 + 0.3 * t), plan.palette.near, 0.25 * t);
    const id = nextId('hill');
    defs.push(
      verticalGradient(
        id,
        [
          [0, mixHex(colour, plan.palette.glow, 0.15)],
          [1, mixHex(colour, plan.palette.sky[plan.palette.sky.length - 1]!, 0.3 * (1 - t))],
        ],
        top,
        horizon + 2,
      ),
    );
    body.push(`<path d="${ridgePath(points, width, top, height * 0.08, horizon + 2)}" fill="url(#${id})"/>`);
  }
  return { defs, body };
}

/** Land below the horizon when there is no water: a gradient from hazy distance to a darker foreground. */
export function groundLayer(plan: ScenePlan, layout: Layout): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  let ground = plan.palette.ground;
  if (plan.features.has('desert')) ground = sandColour(plan);
  if (plan.features.has('snow')) ground = '#e8f0f8';
  if (plan.features.has('city') && !plan.features.has('flowers'))
    ground = mixHex(plan.palette.near, '#000000', 0.2);
  const id = nextId('ground');
  const defs = [
    verticalGradient(
      id,
      [
        [0, mixHex(ground, plan.palette.sky[plan.palette.sky.length - 1]!, 0.35)],
        [1, mixHex(ground, plan.palette.near, plan.features.has('snow') ? 0.25 : 0.55)],
      ],
      horizon,
      height,
    ),
  ];
  return {
    defs,
    body: [`<rect y="${n(horizon)}" width="${width}" height="${n(height - horizon)}" fill="url(#${id})"/>`],
  };
}

export function sandColour(plan: ScenePlan): string {
  const lit = mixHex('#e2b57a', plan.palette.glow, 0.25);
  // Sand takes the light it is given: blue-grey under the night sky, rosy at sunset.
  if (plan.time === 'night') return mixHex(lit, plan.palette.far, 0.7);
  if (plan.time === 'dusk') return mixHex(lit, plan.palette.far, 0.5);
  if (plan.time === 'sunset' || plan.time === 'sunrise') return mixHex(lit, plan.palette.far, 0.45);
  return lit;
}

export function dunesLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const sand = sandColour(plan);
  const shadow = mixHex(sand, plan.palette.near, 0.55);
  for (let k = 0; k < 4; k++) {
    const t = k / 3;
    const top = horizon - height * 0.06 + (height - horizon) * 0.55 * t * t;
    const points = ridge(rng, width, width * range(rng, 0.6, 1.1), 2, false);
    const id = nextId('dune');
    const lit = mixHex(sand, '#fff3d6', 0.2 * (1 - t));
    defs.push(
      verticalGradient(
        id,
        [
          [0, lit],
          [0.25, mixHex(lit, shadow, 0.35 + 0.2 * t)],
          [1, mixHex(shadow, plan.palette.near, 0.3 * t)],
        ],
        top,
        top + height * 0.3,
      ),
    );
    body.push(
      `<path d="${ridgePath(points, width, top, height * (0.07 + 0.05 * t), height)}" fill="url(#${id})"/>`,
    );
  }
  return { defs, body };
}

export function cityLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const night = plan.time === 'night' || plan.time === 'dusk' || plan.moods.has('neon');
  const skyAtHorizon = plan.palette.sky[plan.palette.sky.length - 1]!;
  for (let row = 0; row < 2; row++) {
    const near = row === 1;
    const base = horizon + (near ? 2 : 0);
    const colour = near
      ? mixHex(plan.palette.near, '#000000', 0.15)
      : mixHex(plan.palette.far, skyAtHorizon, 0.25);
    const maxHeight = height * (near ? 0.34 : 0.42);
    let x = -range(rng, 0, 30);
    const buildings: string[] = [];
    const windows: string[] = [];
    while (x < width) {
      const w = range(rng, 26, 74) * (near ? 1.15 : 0.8);
      const tall = rng() < 0.15;
      const h = maxHeight * (tall ? range(rng, 0.7, 1) : range(rng, 0.18, 0.6));
      const top = base - h;
      buildings.push(`<rect x="${n(x)}" y="${n(top)}" width="${n(w)}" height="${n(h + 4)}"/>`);
      if (tall && rng() < 0.6) {
        buildings.push(
          `<rect x="${n(x + w / 2 - 1.5)}" y="${n(top - h * 0.12)}" width="3" height="${n(h * 0.12)}"/>`,
        );
      } else if (rng() < 0.3) {
        buildings.push(
          `<rect x="${n(x + w * 0.15)}" y="${n(top - h * 0.06)}" width="${n(w * 0.7)}" height="${n(h * 0.06 + 1)}"/>`,
        );
      }
      // Windows: a grid, some lit. Near rows get more, distant ones merge into a glow.
      const cols = Math.max(2, Math.floor(w / 11));
      const rows = Math.max(2, Math.floor(h / 14));
      const lit = night ? (near ? 0.35 : 0.5) : 0.12;
      for (let r = 1; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if (rng() > lit) continue;
          const wx = x + (w * (c + 0.3)) / cols;
          const wy = top + r * 14 - 8;
          const lightColour = plan.moods.has('neon') ? pick(rng, plan.palette.accents) : plan.palette.lights;
          windows.push(
            `<rect x="${n(wx)}" y="${n(wy)}" width="${n((w / cols) * 0.45)}" height="6" fill="${lightColour}" ` +
              `fill-opacity="${n(night ? range(rng, 0.55, 1) : range(rng, 0.1, 0.25))}"/>`,
          );
        }
      }
      x += w + range(rng, 0, 6);
    }
    body.push(`<g fill="${colour}">${buildings.join('')}</g>`);
    if (!near || night) body.push(`<g>${windows.join('')}</g>`);
  }
  return { defs, body };
}

/** A pine: a trunk and jagged tiers that widen downwards. */
function pinePath(x: number, base: number, h: number, w: number, rng: Rng): string {
  const tiers = 5 + Math.floor(rng() * 3);
  const left: string[] = [];
  const right: string[] = [];
  for (let i = 1; i <= tiers; i++) {
    const y = base - h + (h * 0.92 * i) / tiers;
    const half = (w / 2) * (i / tiers) * range(rng, 0.85, 1.1);
    const inner = half * 0.55;
    right.push(`L ${n(x + half)} ${n(y)} L ${n(x + inner)} ${n(y - h * 0.03)}`);
    left.unshift(`L ${n(x - inner)} ${n(y - h * 0.03)} L ${n(x - half)} ${n(y)}`);
  }
  right.pop();
  left.shift();
  const trunk = `L ${n(x + w * 0.06)} ${n(base - h * 0.08)} L ${n(x + w * 0.06)} ${n(base)} L ${n(x - w * 0.06)} ${n(base)} L ${n(x - w * 0.06)} ${n(base - h * 0.08)}`;
  return `M ${n(x)} ${n(base - h)} ${right.join(' ')} ${trunk} ${left.join(' ')} Z`;
}

export function forestLayer(
  plan: ScenePlan,
  layout: Layout,
  rng: Rng,
  foreground: boolean,
): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const body: string[] = [];
  const skyAtHorizon = plan.palette.sky[plan.palette.sky.length - 1]!;
  const treeColour = plan.features.has('snow')
    ? mixHex(plan.palette.near, '#9fb3c8', 0.25)
    : mixHex(plan.palette.near, plan.palette.ground, 0.25);
  if (!foreground) {
    // Treelines on the horizon, distant ones hazier.
    for (let row = 0; row < 3; row++) {
      const t = row / 2;
      const colour = mixHex(treeColour, skyAtHorizon, 0.55 * (1 - t));
      const paths: string[] = [];
      const size = height * (0.035 + 0.03 * t);
      let x = -range(rng, 0, size);
      while (x < width + size) {
        const h = size * range(rng, 0.7, 1.4);
        paths.push(pinePath(x, horizon + 2 + row * 2, h, h * 0.42, rng));
        x += h * range(rng, 0.18, 0.36);
      }
      body.push(`<path d="${paths.join(' ')}" fill="${colour}"/>`);
    }
  } else {
    // A few big dark trees framing one or both sides.
    const paths: string[] = [];
    const sides = plan.moods.has('minimal')
      ? [pick(rng, [0, 1])]
      : rng() < 0.5
        ? [0, 1]
        : [pick(rng, [0, 1])];
    for (const side of sides) {
      const count = 2 + Math.floor(rng() * 3);
      for (let i = 0; i < count; i++) {
        const h = height * range(rng, 0.45, 0.8);
        const x = side === 0 ? range(rng, -0.05, 0.16) * width : range(rng, 0.84, 1.05) * width;
        paths.push(pinePath(x, height + 4, h, h * 0.4, rng));
      }
    }
    body.push(`<path d="${paths.join(' ')}" fill="${mixHex(treeColour, '#000000', 0.35)}"/>`);
  }
  return { defs: [], body };
}
