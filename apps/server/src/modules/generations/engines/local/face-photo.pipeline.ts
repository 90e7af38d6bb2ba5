import type { Point2 } from '../../../faces/face-geometry.models.js';
import { FACE_OVAL } from '../../../faces/face-geometry.models.js';
import { decodeRgb } from '../../../faces/face-images.js';
import { canonicalShape, type FaceProfile, pickReferenceForYaw } from '../../../faces/face-profile.models.js';
import type { RgbImage } from '../../../faces/face-warp.models.js';
import { EngineError, engineNote, type EngineFaceModel, type EngineNote } from '../engine.types.js';
import { type Rgb, rgbToHex, mixRgb, hexToRgb } from './colour.js';
import { createRng, mixSeeds, range } from './random.js';
import { type Checkpoint, rawFrom, type RawImage, toSharp } from './raster.js';
import { describeScene, planScene, type ScenePlan } from './scene.models.js';
import { renderScene } from './scene.render.js';
import { placeReference } from './face-swap.pipeline.js';

export interface FacePhotoOutcome {
  image: RawImage;
  notes: EngineNote[];
}

/**
 * "Face photo" without a target photo: the local engine renders the prompt's scene (the simple
 * mode's procedural renderer), draws a head-and-shoulders portrait template on it — shoulders and
 * clothes, neck, a head in the person's own proportions (their profile's mean face shape), skin
 * and hair colours taken from their photo — and places their face on the drawn head with the same
 * pipeline as face swap (warp, Poisson blend). Honest about what it is: a collage, not a
 * generated photo; the notes say so.
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
    throw EngineError.badInput(
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
  const placed = await placeReference(faceModel, 0, toRgb(template), targetMesh, checkpoint, false);
  return {
    image: {
      data: Buffer.from(placed.image.data),
      width: placed.image.width,
      height: placed.image.height,
      channels: 3,
    },
    notes: [
      engineNote(
        'face_photo.method',
        'Face photo by the offline local engine, not a generative model: a procedural scene for your prompt, ' +
          'a drawn portrait template in your face’s proportions and colours, and your face from your model’s ' +
          'best front photo placed on it with the face swap pipeline (mesh warp and gradient-domain blend).',
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
}

function portraitLayout(plan: ScenePlan, rng: () => number): PortraitLayout {
  const side = Math.min(plan.width, plan.height);
  // Thirds: the head sits left, centre or right, eyes about 40 % down.
  const x = plan.width * [0.5, 0.4, 0.6][Math.floor(rng() * 3)]!;
  return {
    eyes: [x, plan.height * range(rng, 0.36, 0.42)],
    eyeDistance: side * range(rng, 0.095, 0.11),
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
  const skin = rgbToHex(colours.skin);
  const skinShade = rgbToHex(mixRgb(colours.skin, [60, 35, 30], 0.28));
  const hair = rgbToHex(colours.hair);
  const hairShade = rgbToHex(mixRgb(colours.hair, [0, 0, 0], 0.3));
  const accents = plan.palette.accents.length ? plan.palette.accents : ['#3b4a6b'];
  // Muted clothes in one of the scene's colours, so the figure belongs to the picture.
  const clothes = rgbToHex(
    mixRgb(hexToRgb(accents[Math.floor(rng() * accents.length)]!), [42, 47, 58], 0.45),
  );
  const clothesShade = rgbToHex(mixRgb(hexToRgb(clothes), [0, 0, 0], 0.35));
  const neckTop = chinY - e * 0.6;
  const neckBase = chinY + e * 0.4;
  const shoulder = faceWidth * 1.35;
  const f = (value: number) => value.toFixed(1);
  const headPath = `M ${outline.map(([x, y]) => `${f(x)} ${f(y)}`).join(' L ')} Z`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="cloth" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${clothes}"/><stop offset="1" stop-color="${clothesShade}"/>
    </linearGradient>
    <linearGradient id="neck" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${skinShade}"/><stop offset="0.7" stop-color="${skin}"/>
    </linearGradient>
    <radialGradient id="head" cx="0.5" cy="0.45" r="0.6">
      <stop offset="0.6" stop-color="${skin}"/><stop offset="1" stop-color="${skinShade}"/>
    </radialGradient>
    <linearGradient id="hair" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${hair}"/><stop offset="1" stop-color="${hairShade}"/>
    </linearGradient>
  </defs>
  <ellipse cx="${f(cx)}" cy="${f(faceTop + e * 0.75)}" rx="${f(faceWidth * 0.66)}" ry="${f(e * 1.55)}" fill="url(#hair)"/>
  <path d="M ${f(cx - faceWidth * 0.23)} ${f(neckTop)} L ${f(cx + faceWidth * 0.23)} ${f(neckTop)}
           L ${f(cx + faceWidth * 0.28)} ${f(neckBase + e * 0.2)} L ${f(cx - faceWidth * 0.28)} ${f(neckBase + e * 0.2)} Z" fill="url(#neck)"/>
  <path d="M ${f(cx - shoulder)} ${height + 4}
           C ${f(cx - shoulder)} ${f(neckBase + e * 0.9)}, ${f(cx - shoulder * 0.75)} ${f(neckBase + e * 0.3)}, ${f(cx - faceWidth * 0.3)} ${f(neckBase)}
           Q ${f(cx)} ${f(neckBase + e * 0.55)} ${f(cx + faceWidth * 0.3)} ${f(neckBase)}
           C ${f(cx + shoulder * 0.75)} ${f(neckBase + e * 0.3)}, ${f(cx + shoulder)} ${f(neckBase + e * 0.9)}, ${f(cx + shoulder)} ${height + 4} Z"
        fill="url(#cloth)"/>
  <ellipse cx="${f(faceLeft + e * 0.04)}" cy="${f(layout.eyes[1] + e * 0.35)}" rx="${f(e * 0.15)}" ry="${f(e * 0.3)}" fill="${skinShade}"/>
  <ellipse cx="${f(faceRight - e * 0.04)}" cy="${f(layout.eyes[1] + e * 0.35)}" rx="${f(e * 0.15)}" ry="${f(e * 0.3)}" fill="${skinShade}"/>
  <path d="${headPath}" fill="url(#head)" stroke="${skin}" stroke-width="${f(e * 0.1)}" stroke-linejoin="round"/>
  <path d="M ${f(faceLeft - e * 0.1)} ${f(layout.eyes[1] - e * 0.45)}
           C ${f(faceLeft - e * 0.15)} ${f(faceTop - e * 0.75)}, ${f(faceRight + e * 0.15)} ${f(faceTop - e * 0.75)}, ${f(faceRight + e * 0.1)} ${f(layout.eyes[1] - e * 0.45)}
           C ${f(faceRight - e * 0.15)} ${f(faceTop + e * 0.12)}, ${f(faceLeft + e * 0.15)} ${f(faceTop + e * 0.12)}, ${f(faceLeft - e * 0.1)} ${f(layout.eyes[1] - e * 0.45)} Z"
        fill="url(#hair)"/>
</svg>`;
  return rawFrom(
    toSharp(scene)
      .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
      .removeAlpha(),
  );
}

function toRgb(image: RawImage): RgbImage {
  if (image.channels !== 3) throw new Error(`expected 3 channels, got ${image.channels}`);
  return {
    data: new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length),
    width: image.width,
    height: image.height,
  };
}
