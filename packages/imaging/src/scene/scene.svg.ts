import { mixHex } from '../raster/colour.js';
import { pick, range, type Rng } from '../raster/random.js';
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
  /** y where a room's floor meets its back wall (interiors only). */
  floor?: number;
}

export const n = (value: number) => Math.round(value * 10) / 10;

export function svgDocument(width: number, height: number, defs: string[], body: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs.join('')}</defs>${body.join('')}</svg>`
  );
}

/** Ids for gradients and filters; they only need to be unique inside one SVG string. */
let gradientCounter = 0;
export const nextId = (prefix: string) => `${prefix}${gradientCounter++}`;

export function verticalGradient(
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

export function radialGlow(id: string, colour: string, opacity: number): string {
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
