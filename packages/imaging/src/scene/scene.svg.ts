import { mixHex, shiftHex } from '../raster/colour.js';
import { fractalLine, pick, range, type Rng } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';

/**
 * SVG builders for the procedural scenes: plain string functions of the plan, the layout and a seeded
 * random source. librsvg (inside sharp) rasterises them with proper anti-aliasing and gradients,
 * which hand-written pixel loops would do worse and slower.
 */

export interface Layout {
  width: number;
  height: number;
  /** y of the horizon: sky above, land or water below. */
  horizon: number;
  sun: { x: number; y: number; r: number } | null;
  moon: { x: number; y: number; r: number } | null;
  hasWater: boolean;
}

const n = (value: number) => Math.round(value * 10) / 10;

export function svgDocument(width: number, height: number, defs: string[], body: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs.join('')}</defs>${body.join('')}</svg>`
  );
}

/** Ids for gradients and filters; they only need to be unique inside one SVG string. */
let gradientCounter = 0;
const nextId = (prefix: string) => `${prefix}${gradientCounter++}`;

function verticalGradient(
  id: string,
  stops: Array<[number, string, number?]>,
  y1?: number,
  y2?: number,
): string {
  const units =
    y1 === undefined ? '' : ` gradientUnits="userSpaceOnUse" x1="0" x2="0" y1="${n(y1)}" y2="${n(y2 ?? 0)}"`;
  const attrs = y1 === undefined ? ' x1="0" x2="0" y1="0" y2="1"' : units;
  return (
    `<linearGradient id="${id}"${attrs}>` +
    stops
      .map(
        ([offset, colour, opacity]) =>
          `<stop offset="${offset}" stop-color="${colour}" stop-opacity="${opacity ?? 1}"/>`,
      )
      .join('') +
    '</linearGradient>'
  );
}

function radialGlow(id: string, colour: string, opacity: number): string {
  return (
    `<radialGradient id="${id}">` +
    `<stop offset="0" stop-color="${colour}" stop-opacity="${opacity}"/>` +
    `<stop offset="0.35" stop-color="${colour}" stop-opacity="${n(opacity * 0.45)}"/>` +
    `<stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`
  );
}

// ---------------------------------------------------------------------------------------------------
// Sky, sun, moon, planet

export function skyLayer(plan: ScenePlan, layout: Layout): { defs: string[]; body: string[] } {
  const { width, height, horizon } = layout;
  const sky = plan.palette.sky;
  const id = nextId('sky');
  const stops: Array<[number, string]> = sky.map((colour, i) => [n((i / (sky.length - 1)) * 0.98), colour]);
  const defs = [verticalGradient(id, stops, 0, horizon)];
  const body = [`<rect width="${width}" height="${height}" fill="url(#${id})"/>`];
  const light = layout.sun ?? layout.moon;
  if (light) {
    const glowId = nextId('glow');
    const strength = layout.sun ? (plan.time === 'day' ? 0.55 : 0.85) : 0.35;
    defs.push(radialGlow(glowId, plan.palette.glow, strength));
    const r = layout.sun ? width * 0.6 : width * 0.3;
    body.push(`<circle cx="${n(light.x)}" cy="${n(light.y)}" r="${n(r)}" fill="url(#${glowId})"/>`);
  }
  if (layout.sun && plan.time !== 'day') {
    // A warm band along the horizon under a low sun.
    const bandId = nextId('band');
    defs.push(
      verticalGradient(
        bandId,
        [
          [0, plan.palette.glow, 0],
          [0.75, plan.palette.glow, 0.45],
          [1, plan.palette.sun, 0.6],
        ],
        horizon - height * 0.25,
        horizon,
      ),
    );
    body.push(
      `<rect y="${n(horizon - height * 0.25)}" width="${width}" height="${n(height * 0.25)}" fill="url(#${bandId})"/>`,
    );
  }
  return { defs, body };
}

export function sunLayer(plan: ScenePlan, layout: Layout): { defs: string[]; body: string[] } {
  const defs: string[] = [];
  const body: string[] = [];
  if (layout.sun) {
    const { x, y, r } = layout.sun;
    const id = nextId('sun');
    defs.push(
      `<radialGradient id="${id}"><stop offset="0" stop-color="#ffffff"/><stop offset="0.6" stop-color="${plan.palette.sun}"/>` +
        `<stop offset="1" stop-color="${mixHex(plan.palette.sun, plan.palette.glow, 0.5)}"/></radialGradient>`,
    );
    if (plan.moods.has('neon')) {
      // Synthwave sun: a yellow-to-magenta disc cut by horizontal slits that widen downwards.
      const neonId = nextId('neonsun');
      const clipId = nextId('clip');
      defs.push(
        verticalGradient(neonId, [
          [0, '#ffe14d'],
          [0.55, '#ff7a3d'],
          [1, '#ff2b9a'],
        ]),
      );
      const slits: string[] = [];
      for (let i = 0; i < 7; i++) {
        const sy = y + r * (0.05 + i * 0.14);
        const gap = 2 + i * 2.2;
        slits.push(`<rect x="${n(x - r)}" y="${n(sy)}" width="${n(2 * r)}" height="${n(gap)}"/>`);
      }
      defs.push(
        `<mask id="${clipId}"><rect x="${n(x - r)}" y="${n(y - r)}" width="${n(2 * r)}" height="${n(2 * r)}" fill="#fff"/>` +
          `<g fill="#000">${slits.join('')}</g></mask>`,
      );
      body.push(
        `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${neonId})" mask="url(#${clipId})"/>`,
      );
    } else if (plan.time === 'day') {
      // A high sun is too bright to have a rim: a white core that melts into its glow.
      const dayId = nextId('daysun');
      defs.push(
        `<radialGradient id="${dayId}"><stop offset="0" stop-color="#ffffff"/><stop offset="0.45" stop-color="#ffffff"/>` +
          `<stop offset="0.62" stop-color="${plan.palette.sun}" stop-opacity="0.9"/><stop offset="1" stop-color="${plan.palette.glow}" stop-opacity="0"/></radialGradient>`,
      );
      body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 1.9)}" fill="url(#${dayId})"/>`);
    } else {
      body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${id})"/>`);
    }
  }
  if (layout.moon) {
    const { x, y, r } = layout.moon;
    const id = nextId('moon');
    defs.push(
      `<radialGradient id="${id}" cx="0.42" cy="0.4"><stop offset="0" stop-color="#fffdf4"/>` +
        `<stop offset="1" stop-color="${mixHex(plan.palette.sun, '#b8c2d8', 0.4)}"/></radialGradient>`,
    );
    body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${id})"/>`);
    // Maria: a few soft grey patches, always in the same places so the moon looks like the moon.
    const maria: Array<[number, number, number, number]> = [
      [-0.28, -0.22, 0.32, 0.22],
      [0.12, -0.3, 0.2, 0.16],
      [0.3, 0.05, 0.24, 0.18],
      [-0.1, 0.15, 0.2, 0.12],
      [0.05, 0.45, 0.14, 0.1],
    ];
    const mariaId = nextId('maria');
    defs.push(`<filter id="${mariaId}"><feGaussianBlur stdDeviation="${n(r * 0.08)}"/></filter>`);
    body.push(
      `<g fill="#7f879c" filter="url(#${mariaId})">` +
        maria
          .map(
            ([dx, dy, size, opacity]) =>
              `<ellipse cx="${n(x + dx * r)}" cy="${n(y + dy * r)}" rx="${n(size * r)}" ry="${n(size * r * 0.8)}" fill-opacity="${opacity}"/>`,
          )
          .join('') +
        '</g>',
    );
  }
  return { defs, body };
}

export function planetLayer(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const r = Math.min(width, height) * range(rng, 0.12, 0.2);
  const x = width * pick(rng, [0.25, 0.72, 0.78, 0.3]);
  const y = height * range(rng, 0.22, 0.4);
  const colour = plan.palette.accents[1] ?? '#c9845a';
  const bodyId = nextId('planet');
  const shadeId = nextId('shade');
  const defs = [
    `<radialGradient id="${bodyId}" cx="0.35" cy="0.3" r="0.85"><stop offset="0" stop-color="${mixHex(colour, '#ffffff', 0.45)}"/>` +
      `<stop offset="0.55" stop-color="${colour}"/><stop offset="1" stop-color="${mixHex(colour, '#000000', 0.85)}"/></radialGradient>`,
    verticalGradient(shadeId, [
      [0, '#ffffff', 0.08],
      [0.5, '#000000', 0],
      [1, '#000000', 0.15],
    ]),
  ];
  const body: string[] = [];
  const ringed = rng() < 0.6;
  const tilt = range(rng, -25, -8);
  const ring = (half: 'back' | 'front') => {
    // The back half of the ring is drawn before the planet, the front half after it.
    const sweep = half === 'back' ? 0 : 1;
    const rx = r * 2.1;
    const ry = r * 0.45;
    return (
      `<path d="M ${n(x - rx)} ${n(y)} A ${n(rx)} ${n(ry)} 0 0 ${sweep} ${n(x + rx)} ${n(y)}" fill="none" ` +
      `stroke="${mixHex(colour, '#f4e9d8', 0.6)}" stroke-opacity="${half === 'back' ? 0.5 : 0.8}" stroke-width="${n(r * 0.22)}" ` +
      `transform="rotate(${n(tilt)} ${n(x)} ${n(y)})"/>`
    );
  };
  if (ringed) body.push(ring('back'));
  body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${bodyId})"/>`);
  // Cloud bands across the disc.
  for (let i = 0; i < 5; i++) {
    const by = y - r + (2 * r * (i + 0.5)) / 5 + range(rng, -r * 0.08, r * 0.08);
    const half = Math.sqrt(Math.max(0, r * r - (by - y) * (by - y)));
    body.push(
      `<line x1="${n(x - half)}" y1="${n(by)}" x2="${n(x + half)}" y2="${n(by)}" stroke="${mixHex(colour, '#ffffff', 0.3)}" ` +
        `stroke-opacity="${n(range(rng, 0.08, 0.2))}" stroke-width="${n(r * range(rng, 0.06, 0.16))}"/>`,
    );
  }
  body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${shadeId})"/>`);
  if (ringed) body.push(ring('front'));
  return { defs, body };
}

// ---------------------------------------------------------------------------------------------------
// Land

/** Ridge line: ridged fractal noise (1 - |2n - 1|) gives sharp peaks and soft valleys. */
function ridge(rng: Rng, width: number, cell: number, octaves: number, sharp: boolean): number[] {
  const samples = Math.ceil(width / 4) + 2;
  const line = fractalLine(rng, samples, { cell: cell / 4, octaves });
  return Array.from(line, (v) => (sharp ? 1 - Math.abs(2 * v - 1) : v));
}

function ridgePath(points: number[], width: number, top: number, amplitude: number, bottom: number): string {
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

// ---------------------------------------------------------------------------------------------------
// Abstract compositions (for prompts with nothing drawable)

export type AbstractKind = 'ribbons' | 'orbs' | 'bauhaus' | 'waves';

export function abstractLayer(
  plan: ScenePlan,
  layout: Layout,
  rng: Rng,
  kind: AbstractKind,
): { defs: string[]; body: string[] } {
  switch (kind) {
    case 'ribbons':
      return ribbons(plan, layout, rng);
    case 'orbs':
      return orbs(plan, layout, rng);
    case 'bauhaus':
      return bauhaus(plan, layout, rng);
    case 'waves':
      return waves(plan, layout, rng);
  }
}

/** Flowing bands crossing the canvas, each with a soft shadow so they stack in depth. */
function ribbons(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const defs = [
    `<filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${n(width * 0.012)}"/></filter>`,
  ];
  const body: string[] = [];
  const count = plan.moods.has('minimal') ? 3 : 6;
  for (let i = 0; i < count; i++) {
    const y0 = height * range(rng, 0.1, 0.9);
    const thickness = height * range(rng, 0.05, 0.16);
    const c1 = rng() * height;
    const c2 = rng() * height;
    const y1 = height * range(rng, 0.1, 0.9);
    const top = `M ${n(-width * 0.1)} ${n(y0)} C ${n(width * 0.35)} ${n(c1)}, ${n(width * 0.65)} ${n(c2)}, ${n(width * 1.1)} ${n(y1)}`;
    const bottom = `L ${n(width * 1.1)} ${n(y1 + thickness)} C ${n(width * 0.65)} ${n(c2 + thickness * 1.6)}, ${n(width * 0.35)} ${n(c1 + thickness * 0.6)}, ${n(-width * 0.1)} ${n(y0 + thickness)} Z`;
    const id = nextId('ribbon');
    const a = plan.palette.accents[i % plan.palette.accents.length]!;
    const b = plan.palette.accents[(i + 1) % plan.palette.accents.length]!;
    defs.push(
      `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="0.3"><stop offset="0" stop-color="${a}"/>` +
        `<stop offset="1" stop-color="${mixHex(b, '#ffffff', 0.15)}"/></linearGradient>`,
    );
    body.push(
      `<path d="${top} ${bottom}" fill="#000" fill-opacity="0.22" filter="url(#soft)" transform="translate(0 ${n(thickness * 0.25)})"/>`,
    );
    body.push(`<path d="${top} ${bottom}" fill="url(#${id})" fill-opacity="${n(range(rng, 0.75, 0.95))}"/>`);
  }
  return { defs, body };
}

/** Overlapping translucent spheres lit from one side. */
function orbs(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const count = plan.moods.has('minimal') ? 4 : 11;
  for (let i = 0; i < count; i++) {
    const r = Math.min(width, height) * range(rng, 0.06, 0.3);
    const x = rng() * width;
    const y = rng() * height;
    const colour = plan.palette.accents[i % plan.palette.accents.length]!;
    const id = nextId('orb');
    defs.push(
      `<radialGradient id="${id}" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="${mixHex(colour, '#ffffff', 0.6)}"/>` +
        `<stop offset="0.5" stop-color="${colour}"/><stop offset="1" stop-color="${mixHex(colour, '#000000', 0.55)}"/></radialGradient>`,
    );
    body.push(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${id})" fill-opacity="${n(range(rng, 0.7, 0.95))}"/>`,
    );
  }
  return { defs, body };
}

/** Flat geometric shapes on a grid, in the Bauhaus poster manner. */
function bauhaus(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const body: string[] = [`<rect width="${width}" height="${height}" fill="#f3ead8" fill-opacity="0.9"/>`];
  const columns = 4;
  const rows = Math.round((columns * height) / width);
  const cell = width / columns;
  const colours = [...plan.palette.accents, '#1f1d2b', '#f3ead8'];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      const x = col * cell;
      const y = row * cell;
      const colour = pick(rng, colours);
      const other = pick(
        rng,
        colours.filter((c) => c !== colour),
      );
      body.push(
        `<rect x="${n(x)}" y="${n(y)}" width="${n(cell + 1)}" height="${n(cell + 1)}" fill="${other}"/>`,
      );
      const shape = Math.floor(rng() * 5);
      const rotate = 90 * Math.floor(rng() * 4);
      const t = `transform="rotate(${rotate} ${n(x + cell / 2)} ${n(y + cell / 2)})"`;
      if (shape === 0)
        body.push(
          `<circle cx="${n(x + cell / 2)}" cy="${n(y + cell / 2)}" r="${n(cell * 0.38)}" fill="${colour}"/>`,
        );
      else if (shape === 1)
        body.push(
          `<path d="M ${n(x)} ${n(y + cell)} A ${n(cell)} ${n(cell)} 0 0 1 ${n(x + cell)} ${n(y)} L ${n(x + cell)} ${n(y + cell)} Z" fill="${colour}" ${t}/>`,
        );
      else if (shape === 2)
        body.push(
          `<path d="M ${n(x)} ${n(y + cell / 2)} A ${n(cell / 2)} ${n(cell / 2)} 0 0 1 ${n(x + cell)} ${n(y + cell / 2)} Z" fill="${colour}" ${t}/>`,
        );
      else if (shape === 3)
        body.push(
          `<path d="M ${n(x)} ${n(y)} L ${n(x + cell)} ${n(y + cell)} L ${n(x)} ${n(y + cell)} Z" fill="${colour}" ${t}/>`,
        );
      else
        body.push(
          `<circle cx="${n(x + cell / 2)}" cy="${n(y + cell / 2)}" r="${n(cell * 0.38)}" fill="none" stroke="${colour}" stroke-width="${n(cell * 0.1)}"/>`,
        );
    }
  }
  return { defs: [], body };
}

/** Stacked smooth waves, lighter at the back: an abstract landscape of colour. */
function waves(plan: ScenePlan, layout: Layout, rng: Rng): { defs: string[]; body: string[] } {
  const { width, height } = layout;
  const defs: string[] = [];
  const body: string[] = [];
  const count = plan.moods.has('minimal') ? 4 : 7;
  for (let i = 0; i < count; i++) {
    const t = i / (count - 1);
    const base = height * (0.3 + 0.6 * t);
    const points = ridge(rng, width, width * range(rng, 0.5, 1), 2, false);
    const colour = mixHex(plan.palette.accents[i % plan.palette.accents.length]!, '#101020', 0.5 * t);
    const id = nextId('wave');
    defs.push(
      verticalGradient(
        id,
        [
          [0, mixHex(colour, '#ffffff', 0.25)],
          [1, colour],
        ],
        base - height * 0.1,
        height,
      ),
    );
    body.push(
      `<path d="${ridgePath(points, width, base - height * 0.12, height * 0.16, height)}" fill="url(#${id})"/>`,
    );
  }
  return { defs, body };
}

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
