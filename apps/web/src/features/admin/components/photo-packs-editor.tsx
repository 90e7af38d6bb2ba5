import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  IMAGE_ASPECTS,
  LANGUAGES,
  PHOTO_PACK_PICTURES_MAX,
  PHOTO_PACK_PICTURES_MIN,
  STAFF_REASON_MAX_LENGTH,
  type TLanguage,
  type TStaffPhotoPack,
} from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { useAppStore } from '../../../lib/app-store';
import { useAction } from '../../../lib/use-action';
import { adminPhotoPackKeys, adminPhotoPacksApi, type PhotoPackFields } from '../api/admin-photo-packs.api';

const texts = (value = '') =>
  Object.fromEntries(LANGUAGES.map((language) => [language, value])) as Record<TLanguage, string>;

const EMPTY: PhotoPackFields = {
  titles: texts(),
  descriptions: texts(),
  emoji: '✨',
  prompts: [],
  aspect: '4:5',
  price: null,
  position: 100,
  retired: false,
};

/**
 * Photo packs: every pack with its price in force and whether it is on sale; a pack's texts in
 * six languages, its English prompts (one picture each), frame shape, price (empty: the per-picture
 * price times its pictures), order, cover and retirement. Saving asks for a reason and is audited.
 */
export function PhotoPacksEditor() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: adminPhotoPackKeys.list(), queryFn: adminPhotoPacksApi.list });
  const [editing, setEditing] = useState<TStaffPhotoPack | 'new' | null>(null);
  if (query.isPending) return <Spinner size={28} />;
  if (query.isError) return <LoadError query={query} />;
  if (editing) {
    return (
      <PhotoPackForm
        key={editing === 'new' ? 'new' : editing.uuid}
        pack={editing === 'new' ? null : editing}
        onDone={() => setEditing(null)}
      />
    );
  }
  return (
    <div className="stack" data-testid="admin-photo-packs">
      <Button theme="primary" onClick={() => setEditing('new')} data-testid="admin-photo-pack-new">
        {t('admin.photoPacks.add')}
      </Button>
      {query.data.results.map((pack) => (
        <button
          key={pack.uuid}
          type="button"
          className="admin__card admin__photo-pack"
          onClick={() => setEditing(pack)}
          data-testid="admin-photo-pack"
        >
          <span className="admin__name">
            <PackEmoji emoji={pack.emoji} art={pack.emoji_art} /> {pack.titles.en}
          </span>
          <span className="admin__meta">
            {t('admin.photoPacks.facts', {
              pictures: pack.prompts.length,
              price: pack.effective_price,
              position: pack.position,
            })}
            {pack.retired && ` · ${t('admin.photoPacks.retired')}`}
          </span>
        </button>
      ))}
    </div>
  );
}

function PhotoPackForm({ pack, onDone }: { pack: TStaffPhotoPack | null; onDone(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [fields, setFields] = useState<PhotoPackFields>(() =>
    pack
      ? {
          titles: pack.titles,
          descriptions: pack.descriptions,
          emoji: pack.emoji,
          prompts: pack.prompts,
          aspect: pack.aspect,
          price: pack.price,
          position: pack.position,
          retired: pack.retired,
        }
      : EMPTY,
  );
  const [prompts, setPrompts] = useState(fields.prompts.join('\n'));
  const [price, setPrice] = useState(fields.price === null ? '' : String(fields.price));
  const [cover, setCover] = useState<File | null>(null);
  const [coverPreview, setCoverPreview] = useState<string | null>(null);
  // The chosen cover's preview address is released when another is chosen or the form closes.
  useEffect(() => (coverPreview ? () => URL.revokeObjectURL(coverPreview) : undefined), [coverPreview]);
  const [reason, setReason] = useState('');
  const errors = useFormErrors(['titles', 'descriptions', 'prompts', 'price', 'emoji', 'reason']);
  const promptList = prompts
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const save = useAction({
    run: async () => {
      const coverUpload = cover ? (await adminPhotoPacksApi.uploadCover(cover)).uuid : null;
      const body = {
        ...fields,
        prompts: promptList,
        price: price.trim() === '' ? null : Number(price),
        cover_upload: coverUpload,
        reason: reason.trim(),
      };
      return pack ? adminPhotoPacksApi.change(pack.uuid, body) : adminPhotoPacksApi.create(body);
    },
    onSuccess: () => {
      useAppStore.getState().showTopinfo('success', t('admin.photoPacks.saved'));
      void client.invalidateQueries({ queryKey: adminPhotoPackKeys.list() });
      onDone();
    },
    onError: (error) => errors.showError(error),
  });
  const setText = (kind: 'titles' | 'descriptions', language: TLanguage, value: string) =>
    setFields((current) => ({ ...current, [kind]: { ...current[kind], [language]: value } }));

  return (
    <form
      className="stack admin__card"
      noValidate
      data-testid="admin-photo-pack-form"
      onSubmit={(event) => {
        event.preventDefault();
        errors.clear();
        if (!reason.trim()) {
          errors.setAlert(t('admin.reasonRequired'));
          return;
        }
        save.mutate(undefined);
      }}
    >
      {errors.alert && <Alert tone="error">{errors.alert}</Alert>}
      {LANGUAGES.map((language) => (
        <div key={language} className="stack">
          <TextInput
            title={t('admin.photoPacks.title', { language: language.toUpperCase() })}
            value={fields.titles[language]}
            onValueChange={(value) => setText('titles', language, value)}
            error={language === 'en' ? errors.fieldErrors.titles?.[0] : undefined}
            data-testid={`admin-photo-pack-title-${language}`}
          />
          <TextInput
            title={t('admin.photoPacks.description', { language: language.toUpperCase() })}
            value={fields.descriptions[language]}
            onValueChange={(value) => setText('descriptions', language, value)}
            error={language === 'en' ? errors.fieldErrors.descriptions?.[0] : undefined}
            data-testid={`admin-photo-pack-description-${language}`}
          />
        </div>
      ))}
      <label className="field">
        <span className="field__title">
          {t('admin.photoPacks.prompts', {
            lines: promptList.length,
            min: PHOTO_PACK_PICTURES_MIN,
            max: PHOTO_PACK_PICTURES_MAX,
          })}
        </span>
        <textarea
          className="text-input__field admin__prompts"
          rows={8}
          value={prompts}
          onChange={(event) => setPrompts(event.target.value)}
          data-testid="admin-photo-pack-prompts"
        />
        {errors.fieldErrors.prompts?.[0] && (
          <span className="field__error">{errors.fieldErrors.prompts[0]}</span>
        )}
      </label>
      <div className="admin__emoji-field">
        <TextInput
          title={t('admin.photoPacks.emoji')}
          value={fields.emoji}
          onValueChange={(emoji) => setFields((current) => ({ ...current, emoji }))}
        />
        {/* The saved emoji as the catalogue draws it (the system font often has no glyph for it). */}
        {pack?.emoji_art && fields.emoji === pack.emoji && (
          <img
            className="admin__emoji-art"
            src={pack.emoji_art}
            alt=""
            data-testid="admin-photo-pack-emoji-art"
          />
        )}
      </div>
      <label className="field">
        <span className="field__title">{t('admin.photoPacks.aspect')}</span>
        <select
          value={fields.aspect}
          onChange={(event) =>
            setFields((current) => ({ ...current, aspect: event.target.value as PhotoPackFields['aspect'] }))
          }
        >
          {IMAGE_ASPECTS.map((aspect) => (
            <option key={aspect} value={aspect}>
              {aspect}
            </option>
          ))}
        </select>
      </label>
      <TextInput
        title={t('admin.photoPacks.price')}
        hint={t('admin.photoPacks.priceHint')}
        value={price}
        inputMode="numeric"
        onValueChange={setPrice}
        error={errors.fieldErrors.price?.[0]}
        data-testid="admin-photo-pack-price"
      />
      <TextInput
        title={t('admin.photoPacks.position')}
        value={String(fields.position)}
        inputMode="numeric"
        onValueChange={(value) => setFields((current) => ({ ...current, position: Number(value) || 0 }))}
      />
      <div className="field">
        <span className="field__title">{t('admin.photoPacks.cover')}</span>
        {coverPreview ? (
          <img
            className="admin__cover"
            src={coverPreview}
            alt=""
            data-testid="admin-photo-pack-cover-preview"
          />
        ) : (
          pack?.cover_url && <img className="admin__cover" src={pack.cover_url} alt="" />
        )}
        {/* A button in the console's language instead of the browser's own "Choose File". */}
        <label className={buttonClass({ theme: 'light', size: 'sm' }, 'admin__cover-choose')}>
          {t(pack?.cover_url || cover ? 'admin.photoPacks.coverChange' : 'admin.photoPacks.coverChoose')}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="visually-hidden"
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null;
              setCover(file);
              setCoverPreview(file ? URL.createObjectURL(file) : null);
            }}
            data-testid="admin-photo-pack-cover"
          />
        </label>
      </div>
      <label className="admin__check">
        <input
          type="checkbox"
          checked={fields.retired}
          onChange={(event) => setFields((current) => ({ ...current, retired: event.target.checked }))}
          data-testid="admin-photo-pack-retired"
        />
        {t('admin.photoPacks.retire')}
      </label>
      <TextInput
        title={t('admin.reason')}
        value={reason}
        maxLength={STAFF_REASON_MAX_LENGTH}
        onValueChange={setReason}
        error={errors.fieldErrors.reason?.[0]}
        data-testid="admin-photo-pack-reason"
      />
      <div className="admin__actions">
        <Button theme="primary" type="submit" loading={save.isPending} data-testid="admin-photo-pack-save">
          {t('admin.photoPacks.save')}
        </Button>
        <Button theme="light" onClick={onDone}>
          {t('admin.confirmNo')}
        </Button>
      </div>
    </form>
  );
}

function PackEmoji({ emoji, art }: { emoji: string; art: string | null }) {
  return art ? (
    <img className="admin__emoji-art admin__emoji-art--inline" src={art} alt={emoji} />
  ) : (
    <>{emoji}</>
  );
}
