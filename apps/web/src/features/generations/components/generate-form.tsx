import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PROMPT_MAX_LENGTH } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { IconSparkles } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import type { TGenerationMode } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { useSession } from '../../../lib/session';
import { MOVES_WITH_BALANCE, useChargedAction, ChargeDialogs } from '../../credits';
import { generationKeys, generationsApi } from '../api/generations.api';
import { formatCountdown } from '../../../lib/countdown';
import {
  buildCreateBody,
  draftProblems,
  draftSpeechSeconds,
  modeNeeds,
  usesPrompt,
} from '../generation-draft';
import { currentLanguage } from '../../../lib/i18n';
import { ideaFor } from '../ideas';
import { useGenerationDraft } from '../hooks/use-generation-draft';
import { usePhotoUpload } from '../hooks/use-photo-upload';
import { useRetryInputs } from '../hooks/use-retry-inputs';
import { useSourceFromGeneration } from '../hooks/use-source-from-generation';
import { usePostRecipe } from '../hooks/use-post-recipe';
import { MODE_ICONS, modeArt } from '../modes';
import { AdvancedSettings } from './advanced-settings';
import type { FromFormState } from './generation-failure';
import { EngineLine } from './engine-line';
import { ModelPicker } from './model-picker';
import { PhotoField } from './photo-field';
import { PriceLine } from './price-line';
import { PromptField } from './prompt-field';
import { PromptHelperSheet } from './prompt-helper-sheet';
import { StylePicker } from './style-picker';
import { VideoSettings } from './video-settings';
import { CameraMovePicker } from './camera-move-picker';
import { MaskPainter } from './mask-painter';
import { PictureSettings } from './picture-settings';
import { ToolSettings } from './tool-settings';
import { SpeechFields } from './speech-fields';
import '../generations.css';

const FORM_FIELDS = [
  'prompt',
  'images',
  'style',
  'seed',
  'guidance',
  'model_uuid',
  'duration',
  'aspect',
  'count',
  'settings.scale',
  'settings.background',
  'settings.colour',
  'settings.mask',
  'settings.extend',
  'settings.garment',
] as const;

/**
 * The generate screen: the mode's photo, style or model, the English description with the prompt
 * helper, advanced settings, the price and balance, and submit. A guest's submit opens sign-in
 * with everything kept; a refused charge opens the credits or limit dialog.
 */
export function GenerateForm({
  mode,
  sourceGenerationUuid,
  postUuid,
}: {
  mode: TGenerationMode;
  sourceGenerationUuid?: string;
  postUuid?: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const openAuthPopup = useAppStore((s) => s.openAuthPopup);
  // A shared link (or a saved query string) may carry a description for an empty field.
  const [searchParams] = useSearchParams();
  // An idea from Home (`?idea=`) fills a draft of its own; the mode's plain draft stays as it was.
  const idea = ideaFor(searchParams.get('idea'), mode);
  const { draft, update } = useGenerationDraft(location.pathname + (idea ? `?idea=${idea.key}` : ''), {
    prompt: idea?.prompt ?? searchParams.get('prompt')?.slice(0, PROMPT_MAX_LENGTH) ?? '',
    style: idea?.style ?? null,
    modelUuid: modeNeeds(mode).model ? searchParams.get('model') : null,
  });
  const needs = modeNeeds(mode);
  const errors = useFormErrors(FORM_FIELDS);
  const [attempted, setAttempted] = useState(false);
  const [helperOpen, setHelperOpen] = useState(false);
  const [helperNote, setHelperNote] = useState<string | null>(null);

  const photo = usePhotoUpload({
    isLoggedIn,
    onUploaded: (upload) => {
      update({ photo: upload });
      errors.clearField('images');
    },
  });
  // The tools' second inputs: the painted mask (an upload made from the painting) and a garment.
  const maskUpload = usePhotoUpload({
    isLoggedIn,
    onUploaded: (upload) => {
      update({ mask: upload });
      errors.clearField('settings.mask');
    },
  });
  const garment = usePhotoUpload({
    isLoggedIn,
    onUploaded: (upload) => {
      update({ garment: upload });
      errors.clearField('settings.garment');
    },
  });
  const source = useSourceFromGeneration({
    uuid: sourceGenerationUuid,
    enabled: needs.photo && !draft.photo && photo.state.status === 'idle',
    onUploaded: (upload) => {
      update({ photo: upload });
      errors.clearField('images');
    },
  });
  // From a post: its prompt and settings, and its picture when the mode works on a photo.
  const fromPost = usePostRecipe({
    postUuid,
    mode,
    draft,
    update,
    wantsPhoto: needs.photo && !draft.photo && photo.state.status === 'idle',
  });
  // Trying a failed generation again: its prompt, settings and photo.
  const retry = useRetryInputs({
    generation: source.generation,
    mode,
    draft,
    update,
    wantsPhoto: needs.photo && !draft.photo && photo.state.status === 'idle',
  });
  // Starting a picture from a description from a result: its description is the starting point.
  const [prefilledFrom, setPrefilledFrom] = useState<string | null>(null);
  if (source.generation && prefilledFrom !== source.generation.uuid) {
    setPrefilledFrom(source.generation.uuid);
    if (!needs.photo && !draft.prompt) update({ prompt: source.generation.prompt });
  }

  const count = needs.count ? draft.count : 1;
  // Words are spoken in the app's language unless another is chosen, and priced and sent so.
  const sent =
    needs.speech && !draft.speechLanguage ? { ...draft, speechLanguage: currentLanguage() } : draft;
  // Priced by the second: a video by its chosen length, a talking photo by its speech's.
  const seconds = needs.video ? draft.duration : needs.speech ? draftSpeechSeconds(sent) : null;
  const price = useQuery({
    queryKey: generationKeys.price(mode, draft.style, isLoggedIn, seconds, count),
    meta: MOVES_WITH_BALANCE,
    queryFn: () => generationsApi.price(mode, needs.style ? draft.style : null, seconds, count),
  });

  const problems = draftProblems(mode, draft);
  const busyPhoto =
    photo.state.status === 'uploading' ||
    maskUpload.state.status === 'uploading' ||
    garment.state.status === 'uploading' ||
    source.isFetching ||
    fromPost.isPreparing ||
    retry.isPreparing;

  const submit = useChargedAction({
    action: (key) => generationsApi.create(buildCreateBody(mode, sent, { postUuid }), key),
    inputs: JSON.stringify(buildCreateBody(mode, sent, { postUuid })),
    onSuccess: (generation) => {
      queryClient.setQueryData(generationKeys.one(generation.uuid), generation);
      const state: FromFormState = { fromForm: true };
      void navigate(`/generation/${generation.uuid}/`, { state });
    },
    onError: errors.showError,
    canRun: () => !problems.length && !busyPhoto,
  });

  const clearFieldError = errors.clearField;
  const chooseModel = useCallback(
    (modelUuid: string) => {
      update({ modelUuid });
      clearFieldError('model_uuid');
    },
    [update, clearFieldError],
  );

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    errors.clear();
    setAttempted(true);
    if (!isLoggedIn) {
      openAuthPopup(location.pathname + location.search);
      return;
    }
    if (problems.length || busyPhoto || submit.pending) return;
    void submit.run();
  }

  const Icon = MODE_ICONS[mode];
  const shown = (problem: (typeof problems)[number]) => attempted && problems.includes(problem);
  return (
    <form className="generate" onSubmit={onSubmit} noValidate data-testid="generate-form">
      <div className="generate-head">
        <span className="generate-head__art" style={{ background: modeArt(mode) }}>
          <Icon size={28} />
        </span>
        <div>
          <h2 className="generate-head__title">{t(`modes.${mode}.title`)}</h2>
          <p className="generate-head__text">{t(`modes.${mode}.description`)}</p>
        </div>
      </div>

      {needs.model && (
        <ModelPicker
          value={draft.modelUuid}
          onChange={chooseModel}
          enabled={isLoggedIn}
          error={errors.fieldErrors.model_uuid?.[0] ?? (shown('model') ? t('generate.needModel') : null)}
        />
      )}

      {needs.photo && (
        <>
          <PhotoField
            mode={mode}
            compact={needs.mask}
            photo={draft.photo}
            upload={photo.state}
            preparing={source.isFetching || fromPost.isPreparing || retry.isPreparing}
            error={
              errors.fieldErrors.images?.[0] ??
              (shown('photo')
                ? t('generate.needPhoto')
                : shown('photoOrPrompt')
                  ? t(`modes.${mode}.photoOrPrompt`)
                  : null)
            }
            onChoose={(file) => {
              errors.clearField('images');
              photo.choose(file);
            }}
            onRemove={() => {
              photo.reset();
              // A mask was painted over this photo: it goes with it.
              maskUpload.reset();
              update({ photo: null, mask: null });
            }}
            onRetry={photo.retry}
          />
          {needs.photoOrPrompt && !draft.photo && photo.state.status === 'idle' && !source.isFetching && (
            <p className="muted-note" data-testid="no-photo-hint">
              {t(`modes.${mode}.noPhotoHint`)}
            </p>
          )}
          {((source.isUnavailable && !retry.isRetry) || retry.isUnavailable || fromPost.isUnavailable) &&
            !draft.photo && (
              <p className="muted-note" data-testid="source-unavailable">
                {t('generate.sourceUnavailable')}
              </p>
            )}
        </>
      )}

      {needs.style && (
        <StylePicker
          value={draft.style}
          onChange={(style) => {
            update({ style });
            errors.clearField('style');
          }}
          error={errors.fieldErrors.style?.[0] ?? (shown('style') ? t('generate.needStyle') : null)}
        />
      )}

      {needs.mask && draft.photo && (
        <MaskPainter
          src={draft.photo.url}
          width={draft.photo.width}
          height={draft.photo.height}
          onChange={(mask) => {
            if (!mask) {
              maskUpload.reset();
              update({ mask: null });
              return;
            }
            maskUpload.choose(new File([mask], 'mask.png', { type: 'image/png' }));
          }}
          error={
            errors.fieldErrors['settings.mask']?.[0] ??
            (shown('mask')
              ? t('tools.needMask')
              : maskUpload.state.status === 'failed'
                ? maskUpload.state.message
                : null)
          }
        />
      )}

      {needs.garment && (
        <PhotoField
          mode={mode}
          label={t('tools.garment')}
          testIdPrefix="garment"
          photo={draft.garment}
          upload={garment.state}
          error={
            errors.fieldErrors['settings.garment']?.[0] ?? (shown('garment') ? t('tools.needGarment') : null)
          }
          onChoose={(file) => {
            errors.clearField('settings.garment');
            garment.choose(file);
          }}
          onRemove={() => {
            garment.reset();
            update({ garment: null });
          }}
          onRetry={garment.retry}
        />
      )}

      {(needs.scale || needs.background || needs.extend) && (
        <ToolSettings
          needs={needs}
          settings={draft.settings}
          onChange={(settings) => {
            update({ settings });
            errors.clearField('settings.colour');
          }}
          error={
            errors.fieldErrors['settings.colour']?.[0] ?? (shown('colour') ? t('tools.needColour') : null)
          }
        />
      )}

      {needs.pictureAspect && (
        <PictureSettings
          count={needs.count ? draft.count : undefined}
          onCount={needs.count ? (value) => update({ count: value }) : undefined}
          aspect={draft.pictureAspect}
          onAspect={(pictureAspect) => {
            update({ pictureAspect });
            errors.clearField('settings.extend');
          }}
          autoLabel={needs.photo ? t('generate.pictureAspectPhoto') : t('generate.pictureAspectAuto')}
        />
      )}

      {needs.video && (
        <VideoSettings
          duration={draft.duration}
          aspect={draft.aspect}
          onDuration={(duration) => update({ duration })}
          onAspect={(aspect) => update({ aspect })}
        />
      )}

      {needs.camera && (
        <CameraMovePicker
          value={draft.settings.camera ?? null}
          onChange={(camera) => {
            const { camera: _previous, ...rest } = draft.settings;
            update({ settings: camera ? { ...rest, camera } : rest });
          }}
        />
      )}

      {usesPrompt(mode, draft) && (
        <PromptField
          value={draft.prompt}
          onChange={(prompt) => {
            update({ prompt });
            errors.clearField('prompt');
            // A mode that takes a photo or a description: the description is what it needs instead.
            if (needs.photoOrPrompt) errors.clearField('images');
            setHelperNote(null);
          }}
          placeholder={t(`modes.${mode}.placeholder`)}
          required={needs.prompt && !draft.voice}
          spoken={needs.speech}
          error={errors.fieldErrors.prompt ?? (shown('prompt') ? t('generate.needPrompt') : null)}
          note={helperNote}
          onHelper={() =>
            isLoggedIn ? setHelperOpen(true) : openAuthPopup(location.pathname + location.search)
          }
        />
      )}

      {needs.speech && (
        <SpeechFields
          language={sent.speechLanguage ?? currentLanguage()}
          voice={draft.voice}
          onLanguage={(speechLanguage) => update({ speechLanguage })}
          onVoice={(voice) => {
            update({ voice });
            errors.clearField('prompt');
          }}
        />
      )}

      <AdvancedSettings
        guidance={draft.guidance}
        seed={draft.seed}
        seedError={
          errors.fieldErrors.seed?.[0] ?? (problems.includes('seed') ? t('generate.seedInvalid') : null)
        }
        onGuidance={(guidance) => update({ guidance })}
        onSeed={(seed) => update({ seed })}
      />

      {errors.alert && <Alert>{errors.alert}</Alert>}

      {/* Said before the price: an offline engine is not discovered after paying. */}
      <EngineLine mode={mode} modelUuid={needs.model ? draft.modelUuid : null} />

      {/* The server prices it again on submit; a failed quote only needs saying, with a retry. */}
      {price.isError && !price.data ? <LoadError query={price} /> : <PriceLine price={price.data} />}

      {submit.waitLeft !== null ? (
        <div className="generate__wait" data-testid="auto-submit">
          <Button type="button" theme="primary" size="lg" block loading>
            {t('generate.autoSubmitIn', { time: formatCountdown(submit.waitLeft) })}
          </Button>
          <Button type="button" theme="light" size="sm" onClick={submit.cancelWait}>
            {t('generate.cancelWait')}
          </Button>
        </div>
      ) : (
        <Button
          type="submit"
          theme="primary"
          size="lg"
          block
          loading={submit.pending}
          disabled={busyPhoto}
          icon={<IconSparkles size={20} />}
          data-testid="generate-submit"
        >
          {t('generate.submit')}
        </Button>
      )}
      {!isLoggedIn && (
        <ButtonLink to="/welcome/" theme="light" block>
          {t('generate.howItWorks')}
        </ButtonLink>
      )}

      <PromptHelperSheet
        open={helperOpen}
        mode={mode}
        initialText={draft.prompt}
        onClose={() => setHelperOpen(false)}
        onPrompt={(result) => {
          update({ prompt: result.prompt });
          errors.clearField('prompt');
          setHelperNote(result.source === 'offline' ? t('helper.offlineNote') : t('helper.llmNote'));
          setHelperOpen(false);
        }}
      />
      <ChargeDialogs refusal={submit.refusal} onClose={submit.closeRefusal} onSkip={submit.skipWait} />
    </form>
  );
}
