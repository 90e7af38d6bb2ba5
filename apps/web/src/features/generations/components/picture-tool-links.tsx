import { useTranslation } from 'react-i18next';
import { MODE_DECLARATIONS } from '@mirra/contracts';
import { ButtonLink } from '../../../components/ui/button';
import { useModeOffered } from '../hooks/use-offered-modes';
import { MODE_ICONS } from '../modes';

/** The tools a finished picture offers (its declaration's `pictureAction`): enlarge, restore, background, paint, extend, try on. */
const PICTURE_TOOLS = MODE_DECLARATIONS.filter((mode) => mode.pictureAction);

/**
 * A button for each picture tool an engine serves, starting it with this picture as its photo:
 * `from` is `generation/<uuid>` (one of my results) or `post/<uuid>` (a published picture).
 */
export function PictureToolLinks({ from, testIdPrefix }: { from: string; testIdPrefix: string }) {
  const { t } = useTranslation();
  const offered = useModeOffered();
  return (
    <>
      {PICTURE_TOOLS.filter(
        // Someone's published picture is remixed into pictures only: nobody's face is made to move
        // or speak from a post (a talking photo starts from one's own picture or upload).
        ({ id, result }) => offered(id) && (result === 'image' || !from.startsWith('post/')),
      ).map(({ id: mode }) => {
        const Icon = MODE_ICONS[mode];
        return (
          <ButtonLink
            key={mode}
            to={`/generate/${mode}/${from}/`}
            theme="light"
            icon={<Icon size={18} />}
            data-testid={`${testIdPrefix}-tool-${mode}`}
          >
            {t(`modes.${mode}.title`)}
          </ButtonLink>
        );
      })}
    </>
  );
}
