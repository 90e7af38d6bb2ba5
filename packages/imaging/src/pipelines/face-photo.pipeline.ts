import { decodeRgb, FACE_OVAL, pickReferenceForYaw, type RgbImage } from '../faces/index.js';
import { engineNote, UnusableInputError, type EngineFaceModel, type EngineNote } from '../pipeline.types.js';
import { createRng, mixSeeds } from '../raster/random.js';
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
import { hashName, layoutFor, renderScene } from '../scene/scene.render.js';
import { subjectPlacements } from '../scene/subjects.check.js';
import { sceneLight } from '../scene/subjects.compose.js';
import { tokens } from '../scene/subjects.models.js';
import { createPersonSegmenter, type PersonSegmenter } from '../video/person-segmentation.js';

export interface FacePhotoOutcome {
  image: RawImage;
  notes: EngineNote[];
  /** Where the person's face landed in the picture (pixels), for checks of a natural scale. */
  face: { x: number; y: number; width: number; height: number };
}

/**
 * "Face photo" without a target photo: the person's real photo in the described scene. The
 * person is cut out of their model's best front photo with the bundled selfie segmentation, set
 * into the prompt's drawn scene (its subjects included) at a portrait's scale — the body running
 * out of the frame's bottom edge as in a photo taken at chest height — their colours moved toward
 * the scene's light, lit from the side the scene's light comes from, and the whole finished with
 * one grain. Nothing of the person is drawn; words about them the picture cannot show (clothes,
 * a pose) are listed in the notes.
 */
export async function facePhotoFromPrompt(
  prompt: string,
  seed: number,
  faceModel: EngineFaceModel,
  checkpoint: Checkpoint,
  segmenter: PersonSegmenter = createPersonSegmenter(),
): Promise<FacePhotoOutcome> {
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
  const alpha = await personAlpha(photo, segmenter);
  await checkpoint();
  const { plan, personWords } = facePhotoPlan(prompt, seed);
  const scene = await renderScene(plan, checkpoint);
  const layout = layoutFor(plan, createRng(mixSeeds(plan.renderSeed, hashName('layout'))));
  const faceBox = boxOf(FACE_OVAL.map((index) => reference.mesh[index]!).filter(Boolean));
  const body = alphaBox(alpha, photo.width, photo.height);
  const boxes = subjectPlacements(plan).map(({ box }) => box.x + box.w / 2);
  const subjectsAt = boxes.length ? boxes.reduce((a, b) => a + b, 0) / boxes.length : null;
  const place = placePerson(plan, faceBox, body, photo.height, subjectsAt);
  const light = layout.sun ?? layout.moon;
  const lightFromRight = light ? light.x > place.left + (body.right - body.left) * place.scale * 0.5 : true;
  // A portrait's shallow depth of field: the scene a little soft behind the sharp person.
  const backdrop = await blurImage(scene, Math.max(1, plan.width * 0.004));
  const composed = await composePerson(backdrop, photo, alpha, body, place, plan, lightFromRight);
  await checkpoint();
  const rng = createRng(mixSeeds(plan.renderSeed, 0xface));
  const image = addGrain(vignette(composed, 0.18), rng, 4);
  const face = {
    x: Math.round(place.left + (faceBox.left - body.left) * place.scale),
    y: Math.round(place.top + (faceBox.top - body.top) * place.scale),
    width: Math.round((faceBox.right - faceBox.left) * place.scale),
    height: Math.round((faceBox.bottom - faceBox.top) * place.scale),
  };
  const notes = [
    engineNote(
      'face_photo.cut_out',
      'You are cut out of your best photo by the offline selfie segmentation and placed into the drawn scene, matched to its light and colour; no body is drawn.',
    ),
    ...describeScene({ ...plan, undrawn: [...new Set([...personWords, ...plan.undrawn])] }),
  ];
  return { image, notes, face };
}

/** Words about the person a cut-out photo cannot show: clothes, poses, expressions. */
const PERSON_WORDS =
  /^(wearing|wears|dressed|dress|dresses|suit|jacket|coat|shirt|t-shirt|jeans|skirt|hat|cap|glasses|sunglasses|scarf|gown|uniform|costume|hoodie|sweater|tie|boots|shoes|sneakers|bikini|swimsuit|kimono|sitting|standing|lying|running|walking|dancing|jumping|smiling|laughing|waving|holding|riding|posing|looking|reading|drinking|eating|playing|singing|hugging|kneeling|crouching)$/;
/** Subjects the real person stands in for, or clothes on them: not drawn as emoji. */
const PERSON_ART =
  /^(person|man|woman|boy|girl|child|baby|older|old-|people|princess|prince|astronaut|superhero|mage)|dress|shirt|jeans|coat|hat|cap|glasses|goggles|scarf|gloves|socks|shoe|boot|sandal|kimono|sari|bikini|swim|crown|necktie|handbag|purse|backpack|ring/;

/** The scene for a face photo: portrait-shaped, with the person's own words kept for the notes. */
export function facePhotoPlan(prompt: string, seed: number): { plan: ScenePlan; personWords: string[] } {
  const planned = planScene(prompt, seed);
  const dropped = planned.subjects.filter((subject) => PERSON_ART.test(subject.art.icon));
  const kept = planned.subjects.filter((subject) => !dropped.includes(subject));
  // Relations point at positions in the list: re-point them after the person's subjects go.
  const subjects = kept.map((subject) => {
    if (!subject.relation) return subject;
    const target = planned.subjects[subject.relation.to]!;
    const to = kept.indexOf(target);
    return { ...subject, relation: to >= 0 ? { ...subject.relation, to } : null };
  });
  const personWords = tokens(prompt).filter(
    (word) =>
      PERSON_WORDS.test(word) ||
      (word.length > 2 &&
        dropped.some(
          (subject) => subject.art.group !== 'person' && subject.phrase.split(' ').includes(word),
        )),
  );
  const portrait = planned.shape === 'square' ? { shape: 'portrait' as const, width: 768, height: 1024 } : {};
  return { plan: { ...planned, ...portrait, subjects }, personWords: [...new Set(personWords)] };
}

/**
 * The person's alpha (0–1) at the photo's size: the selfie model sees the photo and its mirror
 * (its 256 px view is noisy at the outline; the two answers averaged are steadier), scaled up
 * smoothly and sharpened into a soft edge a pixel or two wide.
 */
export async function personAlpha(photo: RgbImage, segmenter: PersonSegmenter): Promise<Float32Array> {
  const buffer = Buffer.from(photo.data.buffer, photo.data.byteOffset, photo.data.length);
  const mirrored = await toSharp({ data: buffer, width: photo.width, height: photo.height, channels: 3 })
    .flop()
    .raw()
    .toBuffer();
  const [straight, flipped] = await Promise.all([
    segmenter.segment({ data: buffer, width: photo.width, height: photo.height }),
    segmenter.segment({ data: mirrored, width: photo.width, height: photo.height }),
  ]);
  const side = straight.width;
  const averaged = Buffer.alloc(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      averaged[y * side + x] = Math.round(
        (straight.data[y * side + x]! + flipped.data[y * side + (side - 1 - x)]!) / 2,
      );
    }
  }
  const large = await toSharp({ data: averaged, width: side, height: side })
    .resize(photo.width, photo.height, { fit: 'fill', kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const alpha = new Float32Array(photo.width * photo.height);
  for (let i = 0; i < alpha.length; i++) {
    const t = Math.min(1, Math.max(0, (large[i]! / 255 - 0.35) / 0.3));
    alpha[i] = t * t * (3 - 2 * t);
  }
  return alpha;
}

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function boxOf(points: ReadonlyArray<readonly number[]>): Bounds {
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

function alphaBox(alpha: Float32Array, width: number, height: number): Bounds {
  let left = width;
  let top = height;
  let right = 0;
  let bottom = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (alpha[y * width + x]! < 0.5) continue;
      left = Math.min(left, x);
      right = Math.max(right, x + 1);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y + 1);
    }
  }
  if (right <= left) {
    throw new UnusableInputError('no_usable_references', 'No person was found in your model’s best photo.');
  }
  return { left, top, right, bottom };
}

/**
 * Where the cut-out goes: its face about a fifth of the picture's height with the eyes near the
 * upper third, the body leaving the frame at the bottom when the photo cut it off there (a
 * head-and-shoulders photo) or standing on the ground otherwise, and beside the scene's own
 * subjects rather than over them.
 */
export function placePerson(
  plan: Pick<ScenePlan, 'width' | 'height'>,
  face: Bounds,
  body: Bounds,
  photoHeight: number,
  subjectsAt: number | null,
): { scale: number; left: number; top: number } {
  const { width: W, height: H } = plan;
  const faceHeight = Math.max(1, face.bottom - face.top);
  const faceCentre = (face.top + face.bottom) / 2;
  const croppedAtBottom = body.bottom >= photoHeight - 2;
  let scale: number;
  let bottom: number;
  if (croppedAtBottom) {
    scale = (0.16 * H) / faceHeight;
    const below = body.bottom - faceCentre;
    // Keep the face between 34 % and 52 % of the height: a long torso scales down, a short one up.
    const centreAt = H - below * scale;
    if (centreAt < 0.34 * H) scale = (0.66 * H) / below;
    if (centreAt > 0.52 * H) scale = (0.48 * H) / below;
    scale = Math.min(Math.max(scale, (0.1 * H) / faceHeight), (0.25 * H) / faceHeight);
    bottom = H;
  } else {
    scale = (0.78 * H) / (body.bottom - body.top);
    bottom = H * 0.95;
  }
  const width = (body.right - body.left) * scale;
  // Opposite the scene's own subjects (their mean x), else in the middle.
  const centreX = subjectsAt === null ? W * 0.5 : subjectsAt > W / 2 ? W * 0.3 : W * 0.7;
  return {
    scale,
    left: Math.round(Math.min(W - width * 0.6, Math.max(-width * 0.4, centreX - width / 2))),
    top: Math.round(bottom - (body.bottom - body.top) * scale),
  };
}

/**
 * The cut-out over the scene: colours moved a third of the way to the scene's light (its time of
 * day, as the drawn subjects get it), brighter on the side the light comes from, a soft shadow
 * behind on the other side, and a pixel of the scene's light wrapping its edge.
 */
async function composePerson(
  backdrop: RawImage,
  photo: RgbImage,
  alpha: Float32Array,
  body: Bounds,
  place: { scale: number; left: number; top: number },
  plan: ScenePlan,
  lightFromRight: boolean,
): Promise<RawImage> {
  const cropW = body.right - body.left;
  const cropH = body.bottom - body.top;
  const rgba = Buffer.alloc(cropW * cropH * 4);
  for (let y = 0; y < cropH; y++) {
    for (let x = 0; x < cropW; x++) {
      const from = (y + body.top) * photo.width + x + body.left;
      const to = (y * cropW + x) * 4;
      rgba[to] = photo.data[from * 3]!;
      rgba[to + 1] = photo.data[from * 3 + 1]!;
      rgba[to + 2] = photo.data[from * 3 + 2]!;
      rgba[to + 3] = Math.round(alpha[from]! * 255);
    }
  }
  const w = Math.max(1, Math.round(cropW * place.scale));
  const h = Math.max(1, Math.round(cropH * place.scale));
  const scaled = await rawFrom(
    toSharp({ data: rgba, width: cropW, height: cropH, channels: 4 }).resize(w, h, {
      fit: 'fill',
      kernel: 'lanczos3',
    }),
  );
  const { gain } = sceneLight(plan);
  const out = Buffer.from(backdrop.data);
  const W = backdrop.width;
  const H = backdrop.height;
  // The scene's mean colour near the person, for a gentle colour cast.
  const cast = [0, 0, 0];
  for (let y = Math.max(0, place.top); y < Math.min(H, place.top + h); y += 4) {
    for (let x = Math.max(0, place.left - w / 2); x < Math.min(W, place.left + w * 1.5); x += 4) {
      const at = (y * W + Math.floor(x)) * 3;
      for (let c = 0; c < 3; c++) cast[c]! += backdrop.data[at + c]!;
    }
  }
  const castLum = (cast[0]! + cast[1]! + cast[2]!) / 3 || 1;
  const tint = cast.map((v) => 0.75 + 0.25 * (v / castLum));
  const shadowDx = Math.round(w * 0.02) * (lightFromRight ? -1 : 1);
  const pass = (shadow: boolean) => {
    for (let y = 0; y < h; y++) {
      const ty = y + place.top + (shadow ? Math.round(h * 0.01) : 0);
      if (ty < 0 || ty >= H) continue;
      for (let x = 0; x < w; x++) {
        const tx = x + place.left + (shadow ? shadowDx : 0);
        if (tx < 0 || tx >= W) continue;
        const from = (y * w + x) * 4;
        const a = scaled.data[from + 3]! / 255;
        if (a <= 0) continue;
        const at = (ty * W + tx) * 3;
        if (shadow) {
          for (let c = 0; c < 3; c++) out[at + c] = Math.round(out[at + c]! * (1 - 0.18 * a));
          continue;
        }
        const u = x / w;
        const side = 1 + 0.12 * (lightFromRight ? 2 * u - 1 : 1 - 2 * u);
        for (let c = 0; c < 3; c++) {
          const lit = scaled.data[from + c]! * (0.6 + 0.4 * gain[c]!) * tint[c]! * side;
          out[at + c] = Math.round(Math.min(255, lit) * a + out[at + c]! * (1 - a));
        }
      }
    }
  };
  pass(true);
  pass(false);
  return { data: out, width: W, height: H, channels: 3 };
}
