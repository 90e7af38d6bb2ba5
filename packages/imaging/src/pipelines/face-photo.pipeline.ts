import {
  type Point2,
  FACE_OVAL,
  decodeRgb,
  canonicalShape,
  type FaceProfile,
  pickReferenceForYaw,
  type RgbImage,
} from '../faces/index.js';
import { engineNote, UnusableInputError, type EngineFaceModel, type EngineNote } from '../pipeline.types.js';
import { type Rgb, rgbToHex, mixRgb, hexToRgb } from '../raster/colour.js';
import { createRng, mixSeeds, range } from '../raster/random.js';
import {
  addGrain,
  blurImage,
  type Checkpoint,
  rawFrom,
  type RawImage,
  toSharp,
  vignette,
} from '../raster/raster.js';
import { describeScene, planScene, type ScenePlan } from '../scene/scene.models.js';
import { renderScene } from '../scene/scene.render.js';
import { placeReference } from './face-swap.pipeline.js';

export interface FacePhotoOutcome {
  image: RawImage;
  notes: EngineNote[];
}

/**
 * "Face photo" without a target photo: the local engine renders the prompt's scene (the simple
 * mode's procedural renderer) out of focus behind a drawn head-and-shoulders portrait lit from one
 * side — jacket and shirt, neck, hair, a head in the person's own proportions (their profile's mean
 * face shape), skin and hair colours taken from their photo — places their face on the drawn head
 * with the same pipeline as face swap (warp, local colour matching, Poisson blend), and finishes
 * the whole like a photo (vignette, grain). Honest about what it is: a composite, not a generated
 * photo; the notes say so.
 */
export async function facePhotoFromPrompt(
  prompt: string,
  seed: number,
  faceModel: EngineFaceModel,
  checkpoint: Checkpoint,
): Promise<FacePhotoOutcome> {
  const plan = portraitPlan(planScene(prompt, seed));
  const scene = await renderScene(plan, checkpoint);
  const reference = pickReferenceForYaw(faceModel.profile, 0);
  if (!reference) {
    throw new UnusableInputError(
      'no_usable_references',
      'Your digital model has no usable photos left. Add photos of yourself to it.',
    );
  }
  const photo = await decodeRgb(await faceModel.loadReferencePhoto(reference.photoId), {
    width: reference.imageWidth,
    height: reference.imageHeight,
  });
  const colours = sampleColours(photo, reference.mesh);
  const rng = createRng(mixSeeds(plan.renderSeed, 0x5eed));
  const layout = portraitLayout(plan, rng);
  const targetMesh = headMesh(faceModel.profile, reference.mesh, layout);
  const template = await drawPortrait(scene, targetMesh, layout, colours, plan, rng);
  await checkpoint();
  const placed = await placeReference(faceModel, 0, toRgb(template), targetMesh, checkpoint, true);
  return {
    image: finishPhoto(placed.image, rng),
    notes: [
      engineNote(
        'face_photo.method',
        'Face photo by the offline local engine, not a generative model: a composite of a procedural scene ' +
          'for your prompt (out of focus), a drawn head-and-shoulders figure in your face’s proportions and ' +
          'colours, and your face from your model’s best front photo placed on it with the face swap pipeline ' +
          '(mesh warp, colour matching and gradient-domain blend).',
      ),
      ...describeScene(plan),
    ],
  };
}

/** A square scene becomes a portrait one: a head-and-shoulders picture is taller than wide. */
function portraitPlan(plan: ScenePlan): ScenePlan {
  if (plan.shape !== 'square') return plan;
  return { ...plan, shape: 'portrait', width: 768, height: 1024 };
}

interface PortraitLayout {
  /** Midpoint between the eyes, in scene pixels. */
  eyes: [number, number];
  /** Distance between the eye centres, pixels. */
  eyeDistance: number;
  /** Which side the key light comes from. */
  lightFromLeft: boolean;
}

function portraitLayout(plan: ScenePlan, rng: () => number): PortraitLayout {
  const side = Math.min(plan.width, plan.height);
  // Thirds: the head sits left, centre or right, eyes about 40 % down.
  const x = plan.width * [0.5, 0.44, 0.56][Math.floor(rng() * 3)]!;
  return {
    eyes: [x, plan.height * range(rng, 0.34, 0.38)],
    eyeDistance: side * range(rng, 0.12, 0.135),
    // The light comes from the side the head leaves more room on (or either, centred).
    lightFromLeft: x === plan.width * 0.5 ? rng() < 0.5 : x > plan.width * 0.5,
  };
}

/** The person's mean face shape (or the reference's own) placed in the scene. */
function headMesh(
  profile: FaceProfile,
  referenceMesh: FaceProfile['references'][number]['mesh'],
  layout: PortraitLayout,
): Point2[] {
  const shape = profile.landmarks?.meanShape ?? canonicalShape(referenceMesh);
  return shape.map(
    ([u, v]) => [layout.eyes[0] + u * layout.eyeDistance, layout.eyes[1] + v * layout.eyeDistance] as const,
  );
}

interface PortraitColours {
  skin: Rgb;
  hair: Rgb;
}

/** Skin from the cheeks and nose bridge, hair from just above the forehead, of the reference photo. */
function sampleColours(photo: RgbImage, mesh: FaceProfile['references'][number]['mesh']): PortraitColours {
  const at = (index: number): [number, number] => [mesh[index]?.[0] ?? 0, mesh[index]?.[1] ?? 0];
  const average = (points: [number, number][], radius: number): Rgb => {
    const sum = [0, 0, 0];
    let count = 0;
    for (const [cx, cy] of points) {
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          const x = Math.round(cx + dx);
          const y = Math.round(cy + dy);
          if (x < 0 || y < 0 || x >= photo.width || y >= photo.height) continue;
          const i = (y * photo.width + x) * 3;
          sum[0]! += photo.data[i]!;
          sum[1]! += photo.data[i + 1]!;
          sum[2]! += photo.data[i + 2]!;
          count++;
        }
      }
    }
    return count ? [sum[0]! / count, sum[1]! / count, sum[2]! / count] : [180, 140, 120];
  };
  const eyeDistance = Math.hypot(at(263)[0] - at(33)[0], at(263)[1] - at(33)[1]) || 40;
  const r = Math.max(2, Math.round(eyeDistance * 0.08));
  // Cheeks (under the eyes) and the bridge of the nose.
  const skin = average([at(205), at(425), at(6)], r);
  // Above the top of the forehead, along the face's up direction.
  const top = at(10);
  const chin = at(152);
  const length = Math.hypot(top[0] - chin[0], top[1] - chin[1]) || 1;
  const up: [number, number] = [(top[0] - chin[0]) / length, (top[1] - chin[1]) / length];
  const hair = average(
    [
      [top[0] + up[0] * eyeDistance * 0.35, top[1] + up[1] * eyeDistance * 0.35],
      [at(103)[0] + up[0] * eyeDistance * 0.3, at(103)[1] + up[1] * eyeDistance * 0.3],
      [at(332)[0] + up[0] * eyeDistance * 0.3, at(332)[1] + up[1] * eyeDistance * 0.3],
    ],
    r,
  );
  return { skin, hair };
}

/**
 * The picture around the face, drawn the way a portrait photo looks: the scene behind thrown out of
 * focus (a wide aperture) with a few soft discs of light from its palette; a head-and-shoulders
 * figure lit from one side — a jacket over a shirt with shading, folds and a rim of the scene's
 * light, a round neck in its own shadow under the chin, hair with volume and strands — so the face
 * placed on it sits in the same light.
 */
async function drawPortrait(
  scene: RawImage,
  mesh: Point2[],
  layout: PortraitLayout,
  colours: PortraitColours,
  plan: ScenePlan,
  rng: () => number,
): Promise<RawImage> {
  const { width, height } = scene;
  const e = layout.eyeDistance;
  const outline = FACE_OVAL.map((index) => mesh[index]!);
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  const faceLeft = Math.min(...xs);
  const faceRight = Math.max(...xs);
  const faceTop = Math.min(...ys);
  const chinY = Math.max(...ys);
  const cx = (faceLeft + faceRight) / 2;
  const faceWidth = faceRight - faceLeft;
  const lightFromLeft = layout.lightFromLeft;
  const f = (value: number) => value.toFixed(1);
  const glow = hexToRgb(plan.palette.glow);
  const skinLit = rgbToHex(mixRgb(colours.skin, glow, 0.12));
  const skin = rgbToHex(colours.skin);
  const skinShade = rgbToHex(mixRgb(colours.skin, [70, 40, 35], 0.35));
  const skinMid = rgbToHex(mixRgb(colours.skin, [70, 40, 35], 0.15));
  const hairLit = rgbToHex(mixRgb(colours.hair, glow, 0.18));
  const hair = rgbToHex(colours.hair);
  const hairShade = rgbToHex(mixRgb(colours.hair, [0, 0, 0], 0.45));
  const accents = plan.palette.accents.length ? plan.palette.accents : ['#3b4a6b'];
  // Muted clothes in one of the scene's colours, so the figure belongs to the picture.
  const clothesBase = mixRgb(hexToRgb(accents[Math.floor(rng() * accents.length)]!), [40, 44, 54], 0.5);
  const clothesLit = rgbToHex(mixRgb(clothesBase, glow, 0.2));
  const clothes = rgbToHex(clothesBase);
  const clothesShade = rgbToHex(mixRgb(clothesBase, [0, 0, 0], 0.5));
  const shirt = rgbToHex(mixRgb([236, 234, 228], glow, 0.12));
  const shirtShade = rgbToHex(mixRgb([236, 234, 228], [60, 60, 70], 0.35));
  const rim = plan.palette.glow;
  // Gradients run from the lit side to the shaded one.
  const [litX, shadeX] = lightFromLeft ? ['0', '1'] : ['1', '0'];

  const neckTop = chinY - e * 0.7;
  const neckBase = chinY + e * 0.95;
  const neckHalf = faceWidth * 0.25;
  const shoulderHalf = faceWidth * 1.6;
  const shoulderY = neckBase + e * 0.75;
  const bottom = height + 4;
  const torso = `M ${f(cx - neckHalf - e * 0.05)} ${f(neckBase - e * 0.1)}
    C ${f(cx - faceWidth * 0.7)} ${f(neckBase + e * 0.15)}, ${f(cx - shoulderHalf * 0.85)} ${f(shoulderY - e * 0.25)}, ${f(cx - shoulderHalf)} ${f(shoulderY + e * 0.25)}
    C ${f(cx - shoulderHalf * 1.1)} ${f(shoulderY + e * 0.9)}, ${f(cx - shoulderHalf * 1.12)} ${f(shoulderY + e * 2)}, ${f(cx - shoulderHalf * 1.15)} ${bottom}
    L ${f(cx + shoulderHalf * 1.15)} ${bottom}
    C ${f(cx + shoulderHalf * 1.12)} ${f(shoulderY + e * 2)}, ${f(cx + shoulderHalf * 1.1)} ${f(shoulderY + e * 0.9)}, ${f(cx + shoulderHalf)} ${f(shoulderY + e * 0.25)}
    C ${f(cx + shoulderHalf * 0.85)} ${f(shoulderY - e * 0.25)}, ${f(cx + faceWidth * 0.7)} ${f(neckBase + e * 0.15)}, ${f(cx + neckHalf + e * 0.05)} ${f(neckBase - e * 0.1)} Z`;
  // The shirt's opening: a V from the collar down to where the jacket closes.
  const vBottom = neckBase + e * 2.1;
  const shirtV = `M ${f(cx - neckHalf * 1.25)} ${f(neckBase - e * 0.05)} L ${f(cx + neckHalf * 1.25)} ${f(neckBase - e * 0.05)} L ${f(cx)} ${f(vBottom)} Z`;
  const lapel = (side: -1 | 1) =>
    `M ${f(cx + side * neckHalf * 1.25)} ${f(neckBase - e * 0.1)}
     L ${f(cx + side * neckHalf * 2.3)} ${f(neckBase + e * 0.35)}
     L ${f(cx + side * neckHalf * 1.7)} ${f(neckBase + e * 0.75)}
     L ${f(cx + side * neckHalf * 2.1)} ${f(neckBase + e * 0.95)}
     L ${f(cx + side * e * 0.05)} ${f(vBottom + e * 0.1)} Z`;
  const collar = (side: -1 | 1) =>
    `M ${f(cx + side * neckHalf * 1.05)} ${f(neckBase - e * 0.35)}
     L ${f(cx + side * neckHalf * 1.3)} ${f(neckBase + e * 0.05)}
     L ${f(cx + side * e * 0.08)} ${f(neckBase + e * 0.45)}
     L ${f(cx + side * neckHalf * 0.2)} ${f(neckBase - e * 0.05)} Z`;
  // Folds: soft creases from the shoulders and the arms towards the middle, each a dark stroke
  // beside a light one.
  const folds: string[] = [];
  for (let k = 0; k < 6; k++) {
    const side = k % 2 === 0 ? -1 : 1;
    const startX = cx + side * shoulderHalf * range(rng, 0.55, 1.0);
    const startY = shoulderY + e * range(rng, 0.3, 1.4);
    const endX = cx + side * shoulderHalf * range(rng, 0.15, 0.5);
    const endY = startY + e * range(rng, 1.2, 2.6);
    const bend = e * range(rng, -0.5, 0.5);
    const d = `M ${f(startX)} ${f(startY)} Q ${f((startX + endX) / 2 + bend)} ${f((startY + endY) / 2)} ${f(endX)} ${f(endY)}`;
    folds.push(
      `<path d="${d}" stroke="${clothesShade}" stroke-width="${f(e * 0.14)}" fill="none" opacity="0.55" stroke-linecap="round" filter="url(#fold)"/>`,
      `<path d="${d}" transform="translate(${f(e * 0.09 * (lightFromLeft ? -1 : 1))} 0)" stroke="${clothesLit}" stroke-width="${f(e * 0.05)}" fill="none" opacity="0.35" stroke-linecap="round" filter="url(#fold)"/>`,
    );
  }
  // Hair: a volume behind the head and a top over the forehead, with strands from turbulence.
  // Short hair ends about the ears; longer hair falls to the shoulders.
  const hairEnd = chinY + e * range(rng, -0.45, 0.9);
  const hairBack = `M ${f(faceLeft - e * 0.3)} ${f(hairEnd)}
    C ${f(faceLeft - e * 0.65)} ${f(faceTop)}, ${f(cx - faceWidth * 0.62)} ${f(faceTop - e * 1.0)}, ${f(cx + e * 0.1)} ${f(faceTop - e * 0.92)}
    C ${f(cx + faceWidth * 0.6)} ${f(faceTop - e * 0.9)}, ${f(faceRight + e * 0.62)} ${f(faceTop - e * 0.1)}, ${f(faceRight + e * 0.3)} ${f(hairEnd)}
    C ${f(faceRight + e * 0.05)} ${f(hairEnd + e * 0.3)}, ${f(faceLeft - e * 0.05)} ${f(hairEnd + e * 0.3)}, ${f(faceLeft - e * 0.3)} ${f(hairEnd)} Z`;
  // The fringe ends where the face swap's cut begins (about halfway up the forehead), so no drawn
  // forehead shows between them.
  const browY = layout.eyes[1] - e * 0.3;
  const fringe = browY - (browY - faceTop) * 0.5;
  const hairTop = `M ${f(faceLeft - e * 0.12)} ${f(layout.eyes[1] - e * 0.35)}
    C ${f(faceLeft - e * 0.2)} ${f(faceTop - e * 0.85)}, ${f(faceRight + e * 0.2)} ${f(faceTop - e * 0.85)}, ${f(faceRight + e * 0.12)} ${f(layout.eyes[1] - e * 0.35)}
    C ${f(faceRight - e * 0.05)} ${f(fringe)}, ${f(cx + e * 0.3)} ${f(fringe - e * 0.05)}, ${f(cx)} ${f(fringe)}
    C ${f(cx - e * 0.3)} ${f(fringe - e * 0.05)}, ${f(faceLeft + e * 0.05)} ${f(fringe)}, ${f(faceLeft - e * 0.12)} ${f(layout.eyes[1] - e * 0.35)} Z`;
  const headPath = `M ${outline.map(([x, y]) => `${f(x)} ${f(y)}`).join(' L ')} Z`;
  const seed = Math.floor(rng() * 1000);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${f(e * 0.03)}"/></filter>
    <filter id="hairEdge" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${f(e * 0.06)}"/></filter>
    <filter id="fold" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${f(e * 0.07)}"/></filter>
    <filter id="shadow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${f(e * 0.18)}"/></filter>
    <filter id="strands" x="0" y="0" width="100%" height="100%">
      <feTurbulence type="fractalNoise" baseFrequency="${(0.9 / e).toFixed(4)} ${(0.12 / e).toFixed(4)}" numOctaves="3" seed="${seed}" result="noise"/>
      <feColorMatrix in="noise" type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 2.2 -0.7" result="dark"/>
      <feComposite in="dark" in2="SourceGraphic" operator="in"/>
    </filter>
    <linearGradient id="cloth" x1="${litX}" y1="0" x2="${shadeX}" y2="0">
      <stop offset="0" stop-color="${clothesLit}"/><stop offset="0.45" stop-color="${clothes}"/><stop offset="1" stop-color="${clothesShade}"/>
    </linearGradient>
    <linearGradient id="clothFall" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/>
    </linearGradient>
    <linearGradient id="shirt" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${shirtShade}"/><stop offset="0.5" stop-color="${shirt}"/>
    </linearGradient>
    <linearGradient id="neck" x1="${litX}" y1="0" x2="${shadeX}" y2="0">
      <stop offset="0" stop-color="${skinShade}"/><stop offset="0.3" stop-color="${skinLit}"/><stop offset="0.75" stop-color="${skin}"/><stop offset="1" stop-color="${skinShade}"/>
    </linearGradient>
    <radialGradient id="head" cx="${lightFromLeft ? 0.42 : 0.58}" cy="0.45" r="0.7">
      <stop offset="0" stop-color="${skin}"/><stop offset="0.6" stop-color="${skin}"/><stop offset="1" stop-color="${skinMid}"/>
    </radialGradient>
    <linearGradient id="hair" x1="${litX}" y1="0" x2="${shadeX}" y2="1">
      <stop offset="0" stop-color="${hairLit}"/><stop offset="0.5" stop-color="${hair}"/><stop offset="1" stop-color="${hairShade}"/>
    </linearGradient>
    <linearGradient id="litFade" x1="${litX}" y1="0" x2="${shadeX}" y2="0">
      <stop offset="0" stop-color="#fff"/><stop offset="0.45" stop-color="#000"/>
    </linearGradient>
    <mask id="litSide" maskUnits="userSpaceOnUse" x="0" y="0" width="${width}" height="${height}">
      <rect x="${f(cx - shoulderHalf * 1.3)}" y="0" width="${f(shoulderHalf * 2.6)}" height="${height}" fill="url(#litFade)"/>
    </mask>
  </defs>
  <path d="${torso}" transform="translate(${f(e * (lightFromLeft ? 0.25 : -0.25))} ${f(e * 0.1)})" fill="#000" opacity="0.3" filter="url(#shadow)"/>
  <path d="${hairBack}" fill="url(#hair)" filter="url(#hairEdge)"/>
  <path d="${hairBack}" fill="${hairShade}" filter="url(#strands)" opacity="0.8"/>
  <path d="M ${f(cx - neckHalf)} ${f(neckTop)} L ${f(cx + neckHalf)} ${f(neckTop)}
           C ${f(cx + neckHalf)} ${f(neckBase - e * 0.3)}, ${f(cx + neckHalf * 1.15)} ${f(neckBase)}, ${f(cx + neckHalf * 1.3)} ${f(neckBase + e * 0.3)}
           L ${f(cx - neckHalf * 1.3)} ${f(neckBase + e * 0.3)}
           C ${f(cx - neckHalf * 1.15)} ${f(neckBase)}, ${f(cx - neckHalf)} ${f(neckBase - e * 0.3)}, ${f(cx - neckHalf)} ${f(neckTop)} Z" fill="url(#neck)"/>
  <ellipse cx="${f(cx + e * (lightFromLeft ? 0.08 : -0.08))}" cy="${f(chinY + e * 0.12)}" rx="${f(faceWidth * 0.3)}" ry="${f(e * 0.28)}" fill="#2a1a16" opacity="0.45" filter="url(#shadow)"/>
  <path d="${torso}" fill="url(#cloth)"/>
  <path d="${torso}" fill="url(#clothFall)"/>
  <path d="${shirtV}" fill="url(#shirt)"/>
  <path d="${collar(-1)}" fill="${shirt}" stroke="${shirtShade}" stroke-width="${f(e * 0.015)}"/>
  <path d="${collar(1)}" fill="${shirt}" stroke="${shirtShade}" stroke-width="${f(e * 0.015)}"/>
  <path d="${lapel(-1)}" fill="${lightFromLeft ? clothesLit : clothesShade}" opacity="0.9"/>
  <path d="${lapel(1)}" fill="${lightFromLeft ? clothesShade : clothesLit}" opacity="0.9"/>
  ${folds.join('\n  ')}
  <path d="${torso}" fill="none" stroke="${rim}" stroke-width="${f(e * 0.07)}" opacity="0.55" filter="url(#soft)" mask="url(#litSide)"/>
  <ellipse cx="${f(faceLeft + e * 0.02)}" cy="${f(layout.eyes[1] + e * 0.4)}" rx="${f(e * 0.16)}" ry="${f(e * 0.32)}" fill="${lightFromLeft ? skin : skinShade}"/>
  <ellipse cx="${f(faceRight - e * 0.02)}" cy="${f(layout.eyes[1] + e * 0.4)}" rx="${f(e * 0.16)}" ry="${f(e * 0.32)}" fill="${lightFromLeft ? skinShade : skin}"/>
  <path d="${headPath}" fill="url(#head)"/>
  <path d="${hairTop}" fill="url(#hair)" filter="url(#soft)"/>
  <path d="${hairTop}" fill="${hairShade}" filter="url(#strands)" opacity="0.7"/>
</svg>`;
  const background = await blurImage(scene, Math.max(2, width * 0.012));
  return rawFrom(
    toSharp(background)
      .composite([
        { input: Buffer.from(bokeh(plan, width, height, e, rng)), left: 0, top: 0 },
        { input: Buffer.from(svg), left: 0, top: 0 },
      ])
      .removeAlpha(),
  );
}

/** Out-of-focus lights: soft discs in the scene's light colours, more of them at night. */
function bokeh(plan: ScenePlan, width: number, height: number, e: number, rng: () => number): string {
  const colours = [plan.palette.lights, plan.palette.glow, ...plan.palette.accents];
  const count = plan.time === 'night' || plan.time === 'dusk' ? 16 : 8;
  const discs: string[] = [];
  for (let k = 0; k < count; k++) {
    const r = e * range(rng, 0.2, 0.6);
    discs.push(
      `<circle cx="${(rng() * width).toFixed(1)}" cy="${(rng() * height * 0.7).toFixed(1)}" r="${r.toFixed(1)}" ` +
        `fill="${colours[Math.floor(rng() * colours.length)]!}" opacity="${range(rng, 0.12, 0.3).toFixed(2)}" filter="url(#disc)"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><filter id="disc"><feGaussianBlur stdDeviation="${(e * 0.04).toFixed(1)}"/></filter></defs>
  ${discs.join('\n  ')}
</svg>`;
}

/** A photograph's finish over the whole picture, face included: darker corners and film grain. */
function finishPhoto(image: RgbImage, rng: () => number): RawImage {
  const raw: RawImage = {
    data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length),
    width: image.width,
    height: image.height,
    channels: 3,
  };
  return addGrain(vignette(raw, 0.35), rng, 4);
}

function toRgb(image: RawImage): RgbImage {
  if (image.channels !== 3) throw new Error(`expected 3 channels, got ${image.channels}`);
  return {
    data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length),
    width: image.width,
    height: image.height,
  };
}
