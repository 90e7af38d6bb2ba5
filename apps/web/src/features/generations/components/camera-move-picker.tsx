import { useTranslation } from 'react-i18next';
import { CAMERA_MOVES, type TCameraMove } from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import '../camera-moves.css';

const CAMERA_TILES = {
  group: 'camera-grid',
  item: (move: TCameraMove | null) => `camera-option camera-option--${move ?? 'auto'}`,
};

/**
 * A video's camera move, as tiles that each play their move over a small drawn picture (sky, sun,
 * hills and a person in front, so parallax and orbit show the person against the background);
 * the first tile leaves the choice to the engine.
 */
export function CameraMovePicker({
  value,
  onChange,
}: {
  value: TCameraMove | null;
  onChange(move: TCameraMove | null): void;
}) {
  const { t } = useTranslation();
  const moves: Array<TCameraMove | null> = [null, ...CAMERA_MOVES];
  return (
    <SegmentedChoice<TCameraMove | null>
      title={t('generate.camera')}
      value={value}
      onChange={onChange}
      classes={CAMERA_TILES}
      options={moves.map((move) => ({
        value: move,
        label: (
          <>
            <span className="camera-option__view" aria-hidden="true">
              <span className="camera-option__back">
                <span className="camera-option__sun" />
                <span className="camera-option__hills" />
              </span>
              <span className="camera-option__front">
                <span className="camera-option__person" />
              </span>
            </span>
            <span className="camera-option__name">
              {move ? t(`generate.cameraMoves.${move}`) : t('generate.cameraAuto')}
            </span>
          </>
        ),
        testId: `camera-${move ?? 'auto'}`,
      }))}
    >
      {value === null && <p className="field__hint">{t('generate.cameraHint')}</p>}
    </SegmentedChoice>
  );
}
