import { GUIDANCE_DEFAULT, modeDeclaration } from '@mirra/contracts';
import type { TCreateGenerationBody, TGenerationMode, TPost } from '../../lib/api-types';
import type { GenerationDraft } from './generation-draft';

/** A generate form nobody has touched yet: the post's recipe may fill it. */
export function isUntouchedDraft(draft: GenerationDraft): boolean {
  return (
    draft.prompt === '' && draft.seed === '' && draft.style === null && draft.guidance === GUIDANCE_DEFAULT
  );
}

/**
 * What the generate form starts with on /generate/<mode>/post/<uuid>/: in the post's own mode, its
 * prompt and settings (remix edits them; sending them unchanged is a repeat). In another mode (face
 * swap onto the post) the post only gives its picture, so the settings stay the mode's own.
 */
export function draftFromRecipe(mode: TGenerationMode, recipe: TPost['recipe']): Partial<GenerationDraft> {
  if (mode !== recipe.mode) return {};
  return {
    prompt: recipe.prompt,
    guidance: recipe.guidance,
    seed: String(recipe.seed),
    style: modeDeclaration(mode).inputs.style ? recipe.style : null,
  };
}

/**
 * Repeat: the post's recipe exactly as it is (same seed), as a new generation of mine. A recipe
 * that works on a photo takes the post's picture (`imageUuid`, from use_image).
 */
export function repeatBody(
  post: Pick<TPost, 'uuid' | 'recipe'>,
  imageUuid: string | null,
): TCreateGenerationBody {
  const { recipe } = post;
  return {
    mode: recipe.mode,
    prompt: recipe.prompt,
    guidance: recipe.guidance,
    style: recipe.style,
    seed: recipe.seed,
    duration: recipe.duration,
    images: recipe.needs_image && imageUuid ? [imageUuid] : [],
    post_uuid: post.uuid,
  };
}
