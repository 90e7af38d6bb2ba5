import { mixHex } from '../raster/colour.js';
import { range, type Rng } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { type Layout, n, nextId, radialGlow, verticalGradient } from './scene.svg.js';

/**
 * A room seen from inside (a cafe, a living room): the back wall with a window onto the outdoor
 * scene already drawn behind it, the floor the subjects stand on, and for a cafe warm pendant
 * lamps. The wall is one path with the window cut out (even-odd fill), so the sky, the city and
 * the rain show through the glass.
 */
export function interiorLayer(
  plan: ScenePlan,
  layout: Layout,
  rng: Rng,
  options: { window: boolean },
): { defs: string[]; body: string[] } {
  const { width: W, height: H } = plan;
  const floor = layout.floor ?? H * 0.66;
  const cafe = plan.features.has('cafe');
  const night = plan.time === 'night' || plan.time === 'dusk';
  const wallBase = cafe ? '#7a4632' : '#d8c6ae';
  const wall = night ? mixHex(wallBase, '#2a1a14', 0.35) : wallBase;
  const wallId = nextId('wall');
  const floorId = nextId('floor');
  const defs = [
    verticalGradient(wallId, [
      [0, mixHex(wall, '#000000', 0.25)],
      [1, mixHex(wall, '#ffe6c0', 0.12)],
    ]),
    verticalGradient(floorId, [
      [0, mixHex(cafe ? '#5a3a26' : '#9a7450', '#000000', night ? 0.35 : 0.1)],
      [1, mixHex(cafe ? '#3a2418' : '#7a5634', '#000000', night ? 0.3 : 0.05)],
    ]),
  ];
  const win = cafe
    ? { x: W * 0.08, y: H * 0.1, w: W * 0.84, h: floor - H * 0.2 }
    : { x: W * range(rng, 0.5, 0.56), y: H * 0.12, w: W * 0.34, h: floor - H * 0.3 };
  const hole = options.window ? `M${n(win.x)} ${n(win.y)}h${n(win.w)}v${n(win.h)}h${n(-win.w)}z` : '';
  const body = [
    `<path fill-rule="evenodd" fill="url(#${wallId})" d="M0 0H${W}V${n(floor)}H0z${hole}"/>`,
    `<rect y="${n(floor)}" width="${W}" height="${n(H - floor)}" fill="url(#${floorId})"/>`,
    `<rect y="${n(floor - H * 0.012)}" width="${W}" height="${n(H * 0.014)}" fill="${mixHex(wall, '#000000', 0.45)}"/>`,
  ];
  if (options.window) {
    const frame = mixHex(cafe ? '#2b1d17' : '#f2ede4', '#000000', night ? 0.3 : 0);
    const bar = W * 0.012;
    const panes = cafe ? 3 : 2;
    for (let i = 0; i <= panes; i++) {
      const x = win.x + (win.w * i) / panes - bar / 2;
      body.push(`<rect x="${n(x)}" y="${n(win.y)}" width="${n(bar)}" height="${n(win.h)}" fill="${frame}"/>`);
    }
    for (const y of [win.y, win.y + win.h * (cafe ? 0.22 : 0.5), win.y + win.h]) {
      body.push(
        `<rect x="${n(win.x - bar / 2)}" y="${n(y - bar / 2)}" width="${n(win.w + bar)}" height="${n(bar)}" fill="${frame}"/>`,
      );
    }
    // The glass catches the room's light in one soft diagonal.
    body.push(
      `<path d="M${n(win.x + win.w * 0.15)} ${n(win.y)}l${n(win.w * 0.12)} 0l${n(-win.w * 0.2)} ${n(win.h)}l${n(-win.w * 0.12)} 0z" fill="#ffffff" opacity="0.07"/>`,
    );
  }
  if (cafe || night) {
    // Pendant lamps: a cord, a shade and the glow they throw.
    const lamps = cafe ? 3 : 1;
    for (let i = 0; i < lamps; i++) {
      const x = lamps === 1 ? W * 0.3 : W * (0.2 + (0.6 * i) / (lamps - 1));
      const y = H * range(rng, 0.16, 0.22);
      const glowId = nextId('lamp');
      defs.push(radialGlow(glowId, '#ffc46b', 0.55));
      body.push(
        `<circle cx="${n(x)}" cy="${n(y + H * 0.03)}" r="${n(W * 0.22)}" fill="url(#${glowId})"/>`,
        `<rect x="${n(x - 0.8)}" y="0" width="1.6" height="${n(y)}" fill="#1a1412"/>`,
        `<path d="M${n(x - W * 0.04)} ${n(y + H * 0.035)}L${n(x - W * 0.015)} ${n(y)}h${n(W * 0.03)}L${n(x + W * 0.04)} ${n(y + H * 0.035)}z" fill="#2c2420"/>`,
        `<ellipse cx="${n(x)}" cy="${n(y + H * 0.036)}" rx="${n(W * 0.03)}" ry="${n(H * 0.008)}" fill="#ffe2a6"/>`,
      );
    }
  }
  return { defs, body };
}
