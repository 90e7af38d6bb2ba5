import type { z } from 'zod';
import {
  aspectsOf,
  makesVideo,
  missingInputs,
  modeDeclaration,
  photoCountOf,
  SPEECH_MAX_CHARACTERS,
  SPEECH_MAX_SECONDS,
  UPLOAD_SETTINGS,
  VIDEO_DURATIONS,
  type TGenerationMode,
  type ZCreateGenerationBody,
} from '@mirra/contracts';
import { AppError, fieldError } from '../../shared/errors.js';
import { isEnglishPrompt } from '../moderation/index.js';
import { findUsableModel, hasVerifiedFace } from '../models/index.js';
import type { UserRow } from '../users/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import { isVideoDuration } from './generations.models.js';
import { uploadsForGenerationRepository } from './generation-inputs.repository.js';

/*
 * What is checked of a request before it is charged, from its mode's declaration: the inputs it
 * lacks (field errors), the frame shape and length it may take, the description's language and
 * moderation, the digital model, and that its photos, mask and garment are the caller's uploads.
 */

type CreateBody = z.output<typeof ZCreateGenerationBody>;

export function checkVideoDuration(mode: TGenerationMode, duration: number | null | undefined): void {
  if (modeDeclaration(mode).inputs.video && duration != null && !isVideoDuration(duration)) {
    throw fieldError('common.validation', {
      duration: [`Choose ${VIDEO_DURATIONS.join(', ')} seconds.`],
    });
  }
}

/** Checks what can be checked before charging: engine, prompt, moderation, photos. */
export async function validateRequest(deps: GenerationsDeps, user: UserRow, body: CreateBody): Promise<void> {
  deps.engines.engineFor(body.mode);
  const missing = missingInputs(body.mode, {
    prompt: body.prompt,
    imageCount: body.images.length,
    style: body.style,
    aspect: body.aspect,
    settings: body.settings,
  });
  const missingSettings = missing.filter((field) => field.startsWith('settings.'));
  if (missingSettings.length) {
    throw fieldError(
      'common.validation',
      Object.fromEntries(
        missingSettings.map((field) => [field, [SETTING_MISSING[field] ?? 'This field is required.']]),
      ),
    );
  }
  if (missing.includes('prompt')) {
    throw fieldError('common.validation', { prompt: ['This field may not be blank.'] });
  }
  if (missing.includes('style')) {
    throw fieldError('common.validation', { style: ['Choose a style.'] });
  }
  // Checked after the model for a mode that takes one, so the model's problem is told first.
  const { inputs } = modeDeclaration(body.mode);
  if (missing.includes('images_or_prompt') && !inputs.model) throw photoOrPromptMissing(body.mode);
  checkVideoDuration(body.mode, body.duration);
  const spoken = inputs.promptIs === 'speech';
  if (spoken) checkSpeech(body);
  // Words to be spoken are said in their own language; only descriptions must be English.
  if (body.prompt && !spoken && !isEnglishPrompt(body.prompt)) {
    // Engines read English; the prompt helper turns wishes in any language into an English prompt.
    throw fieldError('generations.prompt_not_english', { prompt: ['Only in English'] });
  }
  if (body.prompt) {
    const verdict = await deps.promptModerator.check(body.prompt);
    if (verdict.flagged) {
      throw new AppError({
        code: 'generations.prompt_moderated',
        detail: 'Moderation failed: this prompt is not allowed.',
        fields: { prompt: ['Moderation failed: this prompt is not allowed.'] },
      });
    }
  }
  if (inputs.model) await validateModel(deps, user, body);
  if (missing.includes('images_or_prompt')) throw photoOrPromptMissing(body.mode);
  const { min, max } = photoCountOf(body.mode);
  if (body.images.length < min || body.images.length > max) {
    throw fieldError('generations.image_required', {
      images: [
        min === max ? `Upload ${min} photo for this mode.` : `Upload up to ${max} photo for this mode.`,
      ],
    });
  }
  if (body.images.length) {
    const owned = await uploadsForGenerationRepository.findOwned(deps.db, user.id, body.images);
    if (owned.length !== new Set(body.images).size) {
      throw fieldError('generations.image_required', {
        images: ['This photo was not found. Upload it again.'],
      });
    }
  }
  // A recorded voice is one of the caller's recordings.
  if (body.settings?.voice) {
    const [recording] = await uploadsForGenerationRepository.findOwned(deps.db, user.id, [
      body.settings.voice,
    ]);
    if (!recording?.contentType.startsWith('audio/')) {
      throw fieldError('common.validation', {
        'settings.voice': ['This recording was not found. Record it again.'],
      });
    }
  }
  // A mask or a garment is one of the caller's uploads, as the photo is.
  for (const name of UPLOAD_SETTINGS) {
    const upload = body.settings?.[name];
    if (!upload) continue;
    const owned = await uploadsForGenerationRepository.findOwned(deps.db, user.id, [upload]);
    if (owned.length !== 1) {
      throw fieldError('generations.image_required', {
        [`settings.${name}`]: ['This photo was not found. Upload it again.'],
      });
    }
  }
}

/** Words to be spoken fit in the longest talking video, in one of the six voices. */
function checkSpeech(body: CreateBody): void {
  if (body.prompt.length > SPEECH_MAX_CHARACTERS) {
    throw fieldError('common.validation', {
      prompt: [`At most ${SPEECH_MAX_CHARACTERS} characters: about ${SPEECH_MAX_SECONDS} seconds of speech.`],
    });
  }
}

/** What a request lacking a tool's setting is told, by the setting. */
const SETTING_MISSING: Record<string, string> = {
  'settings.scale': 'Choose ×2 or ×4.',
  'settings.background': 'Choose what goes behind the person.',
  'settings.colour': 'Choose a colour.',
  'settings.mask': 'Paint over the part of the picture to change.',
  'settings.extend': 'Choose where to add canvas, or a frame shape.',
  'settings.garment': 'Upload a photo of the garment.',
  'settings.pack': 'Choose a photo pack.',
};

/** A frame shape the mode does not offer (a picture's shape for a video) is refused, not dropped. */
export function checkAspect(mode: TGenerationMode, aspect: string | null | undefined): void {
  const offered = aspectsOf(mode);
  if (aspect && offered.length > 0 && !offered.includes(aspect)) {
    throw fieldError('common.validation', { aspect: [`Choose ${offered.join(', ')}.`] });
  }
}

/** A mode that takes a photo or a description got neither: worded by what it makes. */
function photoOrPromptMissing(mode: TGenerationMode): AppError {
  return fieldError('generations.image_required', {
    images: [
      makesVideo(mode)
        ? 'Upload a photo to animate, or describe a scene to make a video of.'
        : 'Upload the photo to put your face on, or describe a scene in the prompt.',
    ],
  });
}

/**
 * A mode that works with the user's own face needs one of the caller's models with photos: trained,
 * or in training with its photos checked (made from the photos until the training is done).
 */
async function validateModel(deps: GenerationsDeps, user: UserRow, body: CreateBody): Promise<void> {
  if (!body.model_uuid) {
    throw fieldError('generations.model_required', {
      model_uuid: ['Choose your digital model. Create one first if you have none.'],
    });
  }
  const trained = await findUsableModel(deps, user.id, body.model_uuid);
  if (!trained) {
    throw fieldError('generations.model_unavailable', {
      model_uuid: ['This model was not found or is not trained yet.'],
    });
  }
  if (trained.profile.references.length === 0) {
    throw fieldError('generations.model_unavailable', {
      model_uuid: ['This model has no photos left. Add photos of yourself to it.'],
    });
  }
  // A face put onto someone else's post is one that passed a live check: the owner's own, or that
  // of a person who consented through the link. A model trained before live checks has none.
  if (body.images.length > 0 && body.post_uuid) {
    const source = await deps.generationSources.resolve(deps, user.id, body, { lenient: true });
    if (source && source.authorId !== user.id && !(await hasVerifiedFace(deps.db, trained.model.id))) {
      throw fieldError('generations.face_unverified', {
        model_uuid: [
          "Only a face that passed the live check goes onto someone else's post. Take the check with a new model.",
        ],
      });
    }
  }
}
