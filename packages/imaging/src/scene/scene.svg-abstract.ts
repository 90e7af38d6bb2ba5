import { mixHex } from '../raster/colour.js';
import { pick, range, type Rng } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { ridge, ridgePath } from './scene.svg-land.js';
import { type Layout, n, nextId, verticalGradient } from './scene.svg.js';

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
