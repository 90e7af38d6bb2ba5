import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TVerifyResult } from '@mirra/contracts';
import { Alert } from '../../components/ui/alert';
import { IconUpload } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { describeError } from '../../lib/error-messages';
import { verifyFile } from './verify.api';
import './provenance.css';

type State =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'done'; result: TVerifyResult }
  | { kind: 'failed'; message: string };

/**
 * The public verify page: anyone drops a picture or a video and learns whether Mirra made it,
 * when, and whether it changed since (by its signed manifest, or by its look when the metadata
 * was taken off).
 */
export function VerifyPage() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);

  async function check(file: File | undefined) {
    if (!file) return;
    setState({ kind: 'checking' });
    try {
      setState({ kind: 'done', result: await verifyFile(file) });
    } catch (error) {
      const shown = describeError(t, error);
      setState({ kind: 'failed', message: shown.alert ?? Object.values(shown.fields).flat().join(' ') });
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void check(event.dataTransfer.files[0]);
  }

  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { dateStyle: 'long' });

  return (
    <PageFrame width="narrow" testId="verify-page">
      <div className="verify">
        <h1 className="verify__title">{t('verify.title')}</h1>
        <p className="verify__text">{t('verify.text')}</p>
        <label
          className={`dropzone${dragging ? ' verify__drop--over' : ''}`}
          data-testid="verify-dropzone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,video/mp4"
            className="visually-hidden"
            data-testid="verify-input"
            onChange={(event) => {
              void check(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <IconUpload size={28} />
          <span className="dropzone__title">{t('verify.drop')}</span>
          <span className="dropzone__text">{t('verify.dropHint')}</span>
        </label>
        {state.kind === 'checking' && (
          <p className="verify__status" role="status">
            {t('verify.checking')}
          </p>
        )}
        {state.kind === 'failed' && <Alert>{state.message}</Alert>}
        {state.kind === 'done' && <Verdict result={state.result} date={date} />}
        <p className="verify__note">{t('verify.privacy')}</p>
      </div>
    </PageFrame>
  );
}

function Verdict({ result, date }: { result: TVerifyResult; date: (iso: string) => string }) {
  const { t } = useTranslation();
  const { verdict, manifest, match } = result;
  const madeAt = match?.createdAt ?? manifest?.signedAt ?? null;
  const edited = manifest?.actions.includes('c2pa.edited');
  return (
    <section
      className={`verify__verdict verify__verdict--${verdict}`}
      data-testid="verify-verdict"
      data-verdict={verdict}
      aria-live="polite"
    >
      <h2 className="verify__verdict-title">{t(`verify.verdict.${verdict}`)}</h2>
      <p>{t(`verify.explain.${verdict}`)}</p>
      {verdict !== 'unknown' && (
        <ul className="verify__facts">
          {madeAt && <li>{t('verify.madeOn', { date: date(madeAt) })}</li>}
          {manifest?.signedByMirra && <li>{t(edited ? 'verify.actionEdited' : 'verify.actionCreated')}</li>}
          <li>{t(manifest?.signedByMirra ? 'verify.byManifest' : 'verify.byLook')}</li>
        </ul>
      )}
    </section>
  );
}
