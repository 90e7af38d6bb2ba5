import { hexToRgb, mixHex } from '../raster/colour.js';
import { createRng, mixSeeds, range } from '../raster/random.js';
import type { ScenePlan } from './scene.models.js';
import { type Layout, n, nextId } from './scene.svg.js';
import { ART_GRID, subjectSvgBody } from './subjects.art.js';
import type { SubjectSpec } from './subjects.models.js';

/**
 * Where each subject stands in the scene and how it is lit: a pure layout of boxes (ground contact
 * on the land, smaller and hazier with distance, things that fly in the sky, related things on,
 * over, under or beside each other), then one SVG part that draws them with contact shadows and
 * the scene's light, tinted where the prompt asked for a colour.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Placement {
  /** Index into the plan's subjects. */
  subject: number;
  box: Box;
  /** 0 far … 1 near: haze and size follow it. */
  depth: number;
  /** Stands on something (a shadow under it) rather than floating. */
  grounded: boolean;
  flip: boolean;
  /** Draw order: lower first. */
  z: number;
}

/** Things that fly or float: placed in the sky unless the prompt puts them on something. */
const FLYING =
  /^(balloon|bird|dove|eagle|airplane|small-airplane|helicopter|butterfly|honeybee|kite|rocket|flying-saucer|bat|ghost|parrot|owl|dragon|cloud|fairy|person-fairy|angel|sparkles|satellite|lady-beetle|flying-disc|feather|mosquito|fly)$/;
/** Things that hang on a room's wall. */
const ON_WALL = /^(window|framed-picture|mantelpiece-clock|mirror|door)$/;
/** Height at the nearest depth, as a share of the picture's height, by icon and then by group. */
const SIZE_BY_ICON: Array<[RegExp, number]> = [
  [/teddy/, 0.14],
  [/^(person|woman|man)-standing$/, 0.42],
  [/^(child|girl|boy)$/, 0.3],
  [/mouse|hamster|chipmunk|hedgehog|snail|bug|beetle|honeybee|butterfly|spider|frog|lizard/, 0.1],
  [/cat|fox|rabbit|bird|dove|duck|chicken|penguin|owl|parrot|raccoon|skunk|badger|otter|turtle|dog/, 0.22],
  [
    /horse|cow|ox|bison|bear|elephant|giraffe|deer|lion|tiger|wolf|camel|llama|zebra|rhinoceros|hippo|t-rex|sauropod|dragon|unicorn|moose|gorilla/,
    0.36,
  ],
  [/tree|palm|cactus/, 0.55],
  [/tulip|rose|sunflower|blossom|hibiscus|bouquet|seedling|herb|mushroom|potted-plant/, 0.12],
  [
    /lighthouse|castle|tower|house|building|church|temple|mosque|synagogue|stadium|factory|hut|statue|fountain|tent|ferris/,
    0.6,
  ],
  [/couch|bed|piano|keyboard|bathtub/, 0.3],
  [/table/, 0.32],
  [/window|door|framed-picture|mirror/, 0.3],
  [/balloon/, 0.16],
  [/airplane|helicopter|rocket|flying-saucer/, 0.22],
];
const SIZE_BY_GROUP: Record<SubjectSpec['art']['group'], number> = {
  person: 0.42,
  animal: 0.22,
  plant: 0.3,
  food: 0.1,
  place: 0.55,
  vehicle: 0.26,
  object: 0.15,
};

export function sizeOf(subject: SubjectSpec): number {
  return (
    SIZE_BY_ICON.find(([pattern]) => pattern.test(subject.art.icon))?.[1] ?? SIZE_BY_GROUP[subject.art.group]
  );
}

export const flies = (subject: SubjectSpec) => FLYING.test(subject.art.icon);

/** The band things stand on: the land below the horizon, a room's floor, or none in open space. */
export function groundBand(plan: ScenePlan, layout: Layout): { top: number; bottom: number } | null {
  if (plan.features.has('interior')) return { top: layout.floor ?? layout.horizon, bottom: plan.height };
  if (layout.horizon >= plan.height) return null;
  return { top: layout.horizon, bottom: plan.height };
}

/** Boxes of every subject and copy, in draw order. Deterministic in the plan's seed. */
export function composeSubjects(plan: ScenePlan, layout: Layout): Placement[] {
  const subjects = plan.subjects;
  if (subjects.length === 0) return [];
  const rng = createRng(mixSeeds(plan.renderSeed, 0x5b1ec7));
  const { width: W, height: H } = plan;
  const ground = groundBand(plan, layout);
  const placed: Placement[][] = subjects.map(() => []);
  const roots = subjects.map((s, i) => i).filter((i) => !subjects[i]!.relation);
  const rootSlots = new Map(roots.map((index, k) => [index, k]));

  // A thing related to another is placed after it ("a cat on a sofa": the sofa first).
  const order: number[] = [];
  const visit = (index: number, path: Set<number>) => {
    if (order.includes(index) || path.has(index)) return;
    const to = subjects[index]!.relation?.to;
    if (to !== undefined) visit(to, new Set([...path, index]));
    order.push(index);
  };
  subjects.forEach((_, index) => visit(index, new Set()));
  // A room is seen from close by: what stands in it is larger in the picture.
  const closeUp = plan.features.has('interior') ? 1.5 : 1;
  const siblings = new Map<number, number>();
  for (const index of order) {
    const subject = subjects[index]!;
    const base = sizeOf(subject) * H * closeUp;
    const relation = subject.relation;
    let target = relation ? placed[relation.to]?.[0] : undefined;
    // Beside, before or under something on the wall or in the air: stand on the floor below it.
    const standsBelow =
      target &&
      !target.grounded &&
      ground &&
      !flies(subject) &&
      relation &&
      relation.kind !== 'on' &&
      relation.kind !== 'in';
    if (standsBelow && relation && target) {
      const t = target.box;
      const depth = 0.7;
      const baseY = ground.top + (ground.bottom - ground.top) * (0.1 + 0.85 * depth);
      target = {
        ...target,
        box: { x: t.x, y: baseY - t.h, w: t.w, h: t.h },
        depth,
        grounded: true,
        z: baseY,
      };
    }
    const sibling = relation && relation.kind === 'on' ? (siblings.get(relation.to) ?? 0) : 0;
    if (relation) siblings.set(relation.to, sibling + 1);
    // A root's slot across the picture and its depth, shared by its copies.
    const slot = rootSlots.get(index) ?? 0;
    const slots = roots.length;
    const centre = slots === 1 ? range(rng, 0.38, 0.62) : (slot + 0.5) / slots + range(rng, -0.04, 0.04);
    const rootDepth =
      subject.art.group === 'place'
        ? range(rng, 0.1, 0.3)
        : slot === 0
          ? range(rng, 0.6, 0.8)
          : range(rng, 0.35, 0.7);
    for (let copy = 0; copy < subject.count; copy++) {
      let depth: number;
      let baseY: number;
      let cx: number;
      let scale: number;
      let grounded = true;
      let z: number;
      const spread = copy === 0 ? 0 : (copy % 2 === 1 ? 1 : -1) * Math.ceil(copy / 2);
      if (target && relation) {
        const t = target.box;
        depth = target.depth;
        scale = depthScale(depth);
        const w = base * scale;
        const beside = sibling === 0 ? 0 : (sibling % 2 === 1 ? 1 : -1) * Math.ceil(sibling / 2);
        cx = t.x + t.w / 2 + (spread + beside) * w * 0.9 + range(rng, -0.08, 0.08) * t.w;
        switch (relation.kind) {
          case 'on':
            baseY = t.y + t.h * surfaceOf(subjects[relation.to]!);
            z = target.z + 0.5;
            break;
          case 'over':
            baseY = t.y - H * range(rng, 0.03, 0.08) - (copy % 2) * w * 0.5;
            grounded = false;
            z = target.z + 0.5;
            break;
          case 'in': {
            const holder = subjects[relation.to]!;
            if (holder.art.group === 'vehicle' || holder.art.group === 'place') {
              // In a car, a boat, a saucer: peeking out over its side, the holder drawn in front.
              scale *= 0.55;
              baseY = t.y + t.h * 0.4;
              z = target.z - 0.5;
            } else if (sizeOf(holder) > sizeOf(subject) * 1.3) {
              scale *= 0.6;
              baseY = t.y + t.h * 0.8;
              z = target.z + 0.5;
            } else {
              // "A unicorn in the flowers": among them, beside the nearest.
              baseY = t.y + t.h;
              cx = t.x + t.w / 2 + (t.x + t.w / 2 < W / 2 ? 1 : -1) * (t.w / 2 + w * 0.5);
              z = target.z + 0.5;
            }
            break;
          }
          case 'under':
            baseY = target.grounded ? t.y + t.h + H * 0.01 : (ground?.bottom ?? H) - H * 0.1;
            z = target.z + 1;
            break;
          case 'in_front_of':
            depth = Math.min(1, depth + 0.15);
            scale = depthScale(depth);
            baseY = t.y + t.h + H * 0.05;
            cx = t.x + t.w * range(rng, 0.2, 0.8) + spread * w;
            z = target.z + 1;
            break;
          case 'behind':
            depth = Math.max(0, depth - 0.15);
            scale = depthScale(depth);
            baseY = t.y + t.h - H * 0.04;
            cx = t.x + t.w * range(rng, 0.15, 0.85) + spread * w;
            z = target.z - 1;
            break;
          default: {
            // Next to: the same depth, beside it, on the side with more room.
            const side = t.x + t.w / 2 < W / 2 ? 1 : -1;
            baseY = t.y + t.h;
            cx = t.x + t.w / 2 + side * (t.w / 2 + w * 0.55 + copy * w * 0.9);
            z = target.z;
          }
        }
        if (!target.grounded && relation.kind !== 'over' && relation.kind !== 'under') grounded = false;
      } else {
        if (flies(subject) || !ground || (plan.features.has('interior') && ON_WALL.test(subject.art.icon))) {
          grounded = false;
          depth = 0.6;
          scale = depthScale(depth) * (copy === 0 ? 1 : range(rng, 0.75, 1));
          const top = ground ? ground.top : H;
          const wall = plan.features.has('interior') && ON_WALL.test(subject.art.icon);
          const skyY = wall ? top * 0.62 : range(rng, 0.3, 0.75) * top;
          baseY = skyY + (copy === 0 ? 0 : range(rng, -0.12, 0.12) * top);
          cx = W * centre + spread * base * scale * range(rng, 0.7, 1.1);
          z = 0;
        } else {
          // Nearest first root; buildings stand further back, where they still fit.
          depth = copy === 0 ? rootDepth : Math.max(0, Math.min(1, rootDepth + range(rng, -0.12, 0.08)));
          scale = depthScale(depth);
          baseY = ground.top + (ground.bottom - ground.top) * (0.1 + 0.85 * depth);
          // Copies stand side by side around the slot's centre.
          cx = W * centre + (copy - (subject.count - 1) / 2) * base * scale * 1.1;
          z = baseY;
        }
      }
      const h = base * scale;
      const w = h;
      const box: Box = {
        x: Math.round(Math.max(-w * 0.1, Math.min(W - w * 0.9, cx - w / 2))),
        y: Math.round(Math.max(-h * 0.1, Math.min(H - h * 0.95, baseY - h))),
        w: Math.round(w),
        h: Math.round(h),
      };
      placed[index]!.push({ subject: index, box, depth, grounded, flip: rng() < 0.35, z: z + copy * 0.01 });
    }
  }
  return placed.flat().sort((a, b) => a.z - b.z);
}

const depthScale = (depth: number) => 0.45 + 0.65 * depth;

/** Where on a support its top surface is, as a share of its box from the top. */
function surfaceOf(support: SubjectSpec): number {
  if (/couch/.test(support.art.icon)) return 0.62;
  if (/table/.test(support.art.icon)) return 0.4;
  if (/bed/.test(support.art.icon)) return 0.55;
  if (/chair/.test(support.art.icon)) return 0.55;
  return 0.15;
}

/** How the scene's light colours what stands in it: per-channel gain, haze colour and strength. */
export function sceneLight(plan: ScenePlan): {
  gain: [number, number, number];
  haze: string;
  hazeMax: number;
} {
  const gains: Record<ScenePlan['time'], [number, number, number]> = {
    day: [1, 1, 1],
    golden: [1.04, 0.95, 0.8],
    sunrise: [1, 0.88, 0.82],
    sunset: [1, 0.78, 0.7],
    dusk: [0.72, 0.7, 0.88],
    night: [0.5, 0.55, 0.75],
  };
  let gain = gains[plan.time];
  if (plan.features.has('interior')) gain = plan.time === 'night' ? [0.92, 0.82, 0.68] : [1, 0.95, 0.86];
  if (plan.features.has('rain')) gain = gain.map((g) => g * 0.85) as [number, number, number];
  if (plan.moods.has('neon')) gain = [gain[0] * 0.95, gain[1] * 0.75, gain[2]];
  return { gain, haze: plan.palette.far, hazeMax: plan.features.has('interior') ? 0.05 : 0.35 };
}

/** The subjects as one SVG part, back to front, with their contact shadows. */
export function subjectsPart(
  plan: ScenePlan,
  layout: Layout,
  placements: Placement[],
): { defs: string[]; body: string[] } {
  const defs: string[] = [];
  const body: string[] = [];
  const light = sceneLight(plan);
  const lightSource = layout.sun ?? layout.moon;
  const shadowStrength =
    plan.features.has('rain') || plan.features.has('clouds') ? 0.3 : plan.time === 'night' ? 0.35 : 0.5;
  const shadowId = nextId('shadow');
  defs.push(
    `<radialGradient id="${shadowId}"><stop offset="0" stop-color="#000" stop-opacity="${shadowStrength}"/>` +
      `<stop offset="0.6" stop-color="#000" stop-opacity="${n(shadowStrength * 0.45)}"/>` +
      `<stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`,
  );
  for (const placement of placements) {
    const subject = plan.subjects[placement.subject]!;
    const { x, y, w, h } = placement.box;
    if (placement.grounded) {
      // The shadow falls away from the light, longer when the light is low.
      const away = lightSource ? Math.sign(x + w / 2 - lightSource.x) : 0.3;
      const low = plan.time === 'sunset' || plan.time === 'sunrise' || plan.time === 'golden';
      const cx = x + w / 2 + away * w * (low ? 0.22 : 0.08);
      body.push(
        `<ellipse cx="${n(cx)}" cy="${n(y + h * 0.97)}" rx="${n(w * (low ? 0.55 : 0.42))}" ry="${n(h * 0.07)}" fill="url(#${shadowId})"/>`,
      );
    }
    const filterId = nextId('light');
    const haze = light.hazeMax * (1 - placement.depth) * (placement.grounded ? 1 : 0.5);
    defs.push(lightFilter(filterId, light.gain, light.haze, haze, subject.colour?.hex ?? null));
    const flip = placement.flip ? ` transform="translate(${n(2 * x + w)} 0) scale(-1 1)"` : '';
    body.push(
      `<g filter="url(#${filterId})"${flip}><svg x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${ART_GRID} ${ART_GRID}">` +
        `${subjectSvgBody(subject.art)}</svg></g>`,
    );
  }
  return { defs, body };
}

/**
 * One filter per subject: the asked colour replaces the art's hue (its shading kept through the
 * luminance), then the scene's light multiplies and distance hazes it toward the far land.
 */
function lightFilter(
  id: string,
  gain: [number, number, number],
  hazeColour: string,
  haze: number,
  tint: string | null,
): string {
  const steps: string[] = [];
  if (tint) {
    const [r, g, b] = hexToRgb(mixHex(tint, '#ffffff', 0.08)).map((c) => (c / 255) * 1.7);
    const lum = [0.3, 0.59, 0.11];
    const m = 0.85;
    const row = (c: number, own: number) =>
      lum.map((l, k) => n((k === own ? 1 - m : 0) + m * c * l)).join(' ');
    steps.push(
      `<feColorMatrix type="matrix" values="${row(r!, 0)} 0 0 ${row(g!, 1)} 0 0 ${row(b!, 2)} 0 0 0 0 0 1 0"/>`,
    );
  }
  const [hr, hg, hb] = hexToRgb(hazeColour).map((c) => c / 255);
  const keep = 1 - haze;
  const rowOf = (k: number, g: number, hc: number) =>
    [0, 1, 2].map((j) => (j === k ? n3(g * keep) : 0)).join(' ') + ` 0 ${n3(hc * haze)}`;
  steps.push(
    `<feColorMatrix type="matrix" values="${rowOf(0, gain[0], hr!)} ${rowOf(1, gain[1], hg!)} ${rowOf(2, gain[2], hb!)} 0 0 0 1 0"/>`,
  );
  return `<filter id="${id}" x="0" y="0" width="1" height="1" color-interpolation-filters="sRGB">${steps.join('')}</filter>`;
}

const n3 = (value: number) => Math.round(value * 1000) / 1000;
