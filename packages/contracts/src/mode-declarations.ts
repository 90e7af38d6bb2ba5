import type { ModeDeclaration } from './modes.js';

/*
 * Every generation mode's declaration, each once: what it takes and makes, the provider jobs that
 * make it, its price and free tier. Everything that differs between modes reads these (through
 * the rules in modes.ts); adding a mode starts here (docs/ADDING_A_MODE.md).
 */
const simple = {
  id: 'simple',
  result: 'image',
  createCard: true,
  pictureAction: false,
  inputs: {
    prompt: 'required',
    promptIgnoredWithPhoto: false,
    promptIs: 'scene',
    photo: 'none',
    style: false,
    model: false,
    video: false,
    aspect: 'image',
    count: true,
    settings: {},
  },
  jobs: { withPhoto: null, withoutPhoto: 'text_to_image' },
  price: { key: 'simple', per: 'run', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** Onto a photo (the target), or with no photo a face photo of the model in the described scene. */
const faceSwap = {
  id: 'face_swap',
  result: 'image',
  createCard: true,
  pictureAction: false,
  inputs: {
    prompt: 'without_photo',
    promptIgnoredWithPhoto: true,
    promptIs: 'scene',
    photo: 'optional',
    style: false,
    model: true,
    video: false,
    aspect: 'image',
    count: true,
    settings: {},
  },
  jobs: { withPhoto: 'swap_face', withoutPhoto: 'face_photo' },
  price: { key: 'face_swap', per: 'run', default: 10 },
  freeTier: true,
} as const satisfies ModeDeclaration;

const editing = {
  id: 'editing',
  result: 'image',
  createCard: true,
  pictureAction: false,
  inputs: {
    prompt: 'required',
    promptIgnoredWithPhoto: false,
    promptIs: 'edit',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'image',
    count: true,
    settings: {},
  },
  jobs: { withPhoto: 'photo_edit', withoutPhoto: null },
  price: { key: 'editing', per: 'run', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

const styling = {
  id: 'styling',
  result: 'image',
  createCard: true,
  pictureAction: false,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: false,
    promptIs: 'scene',
    photo: 'required',
    style: true,
    model: false,
    video: false,
    aspect: 'image',
    count: true,
    settings: {},
  },
  jobs: { withPhoto: 'restyle', withoutPhoto: null },
  price: { key: 'styling', per: 'run', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** Animates a photo, or without one makes a scene of the description; priced by the second. */
const video = {
  id: 'video',
  result: 'video',
  createCard: false,
  pictureAction: false,
  inputs: {
    prompt: 'without_photo',
    promptIgnoredWithPhoto: false,
    promptIs: 'scene',
    photo: 'optional',
    style: false,
    model: false,
    video: true,
    aspect: 'video',
    count: false,
    settings: { camera: 'optional' },
  },
  jobs: { withPhoto: 'image_to_video', withoutPhoto: 'text_to_video' },
  price: { key: 'video_per_second', per: 'second', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** A picture enlarged ×2 or ×4 with detail added: for a result to print or a small old photo. */
const upscale = {
  id: 'upscale',
  result: 'image',
  createCard: true,
  pictureAction: true,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: true,
    promptIs: 'edit',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'none',
    count: false,
    // ×2 unless another factor is chosen.
    settings: { scale: 'optional' },
  },
  jobs: { withPhoto: 'super_resolution', withoutPhoto: null },
  price: { key: 'upscale', per: 'run', default: 3 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** An old or damaged photo repaired. */
const restore = {
  id: 'restore',
  result: 'image',
  createCard: true,
  pictureAction: true,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: true,
    promptIs: 'edit',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'none',
    count: false,
    settings: {},
  },
  jobs: { withPhoto: 'photo_repair', withoutPhoto: null },
  price: { key: 'restore', per: 'run', default: 4 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/**
 * The background removed (a PNG with transparency) or replaced by a colour, the photo blurred or a
 * described scene; the description is read only for a scene.
 */
const background = {
  id: 'background',
  result: 'image',
  createCard: true,
  pictureAction: true,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: false,
    promptIs: 'scene',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'none',
    count: false,
    // Removed (a PNG with transparency) unless something else is chosen.
    settings: { background: 'optional', colour: 'optional' },
  },
  jobs: { withPhoto: 'cut_out', withoutPhoto: null },
  price: { key: 'background', per: 'run', default: 3 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** The painted part changed as described; with no description what is painted is removed. */
const inpaint = {
  id: 'inpaint',
  result: 'image',
  createCard: false,
  pictureAction: true,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: false,
    promptIs: 'edit',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'none',
    count: false,
    settings: { mask: 'required' },
  },
  jobs: { withPhoto: 'masked_fill', withoutPhoto: null },
  price: { key: 'inpaint', per: 'run', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** Canvas added in a direction or to a frame shape; a description says what the new part shows. */
const outpaint = {
  id: 'outpaint',
  result: 'image',
  createCard: false,
  pictureAction: true,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: false,
    promptIs: 'scene',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'image',
    count: false,
    settings: { extend: 'optional' },
  },
  jobs: { withPhoto: 'canvas_fill', withoutPhoto: null },
  price: { key: 'outpaint', per: 'run', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/** The person's photo dressed in a garment from a second photo. */
const tryOn = {
  id: 'try_on',
  result: 'image',
  createCard: false,
  pictureAction: true,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: true,
    promptIs: 'edit',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'none',
    count: false,
    settings: { garment: 'required' },
  },
  jobs: { withPhoto: 'garment_swap', withoutPhoto: null },
  price: { key: 'try_on', per: 'run', default: 10 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/**
 * The person of a portrait saying a text in one of the app's languages, or a recorded voice; the
 * length follows the speech (spokenSeconds), priced by the second.
 */
const talkingPhoto = {
  id: 'talking_photo',
  result: 'video',
  createCard: true,
  pictureAction: true,
  inputs: {
    prompt: 'required',
    promptIgnoredWithPhoto: false,
    promptIs: 'speech',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'video',
    count: false,
    settings: { voice: 'optional', language: 'optional' },
  },
  jobs: { withPhoto: 'talking_video', withoutPhoto: null },
  price: { key: 'talking_photo_per_second', per: 'second', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

/**
 * A photo pack: a themed set of prompts staff made (settings.pack) becomes one picture of the
 * person per prompt, from their digital model, all in one set. The pack sets the frame shape and
 * the price of the whole pack; each picture is charged its share and refunded by it alone.
 */
const photoPack = {
  id: 'photo_pack',
  result: 'image',
  createCard: false,
  pictureAction: false,
  inputs: {
    prompt: 'none',
    promptIgnoredWithPhoto: false,
    promptIs: 'scene',
    photo: 'none',
    style: false,
    model: true,
    video: false,
    aspect: 'none',
    count: false,
    settings: { pack: 'required' },
  },
  jobs: { withPhoto: null, withoutPhoto: 'face_photo' },
  // Per picture of a pack whose own price staff left unset.
  price: { key: 'pack_picture', per: 'run', default: 3 },
  freeTier: false,
} as const satisfies ModeDeclaration;

/** The photo pack mode's id: its catalogue and albums are screens of their own. */
export const PHOTO_PACK_MODE = photoPack.id;

/** Every mode, in the order the app lists them. */
export const MODE_DECLARATIONS = [
  simple,
  faceSwap,
  editing,
  styling,
  video,
  upscale,
  restore,
  background,
  inpaint,
  outpaint,
  tryOn,
  talkingPhoto,
  photoPack,
] as const;
