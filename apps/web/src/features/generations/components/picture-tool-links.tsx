import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MODE_DECLARATIONS } from '@mirra/contracts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { IconChevron, IconGrid } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import { useModeOffered } from '../hooks/use-offered-modes';
import { MODE_ICONS } from '../modes';
import '../generations.css';

/** The tools a finished picture offers (its declaration's `pictureAction`): enlarge, restore, background, paint, extend, try on. */
const PICTURE_TOOLS = MODE_DECLARATIONS.filter((mode) => mode.pictureAction);

/**
 * The picture tools an engine serves for this picture. Someone's published picture is remixed into
 * pictures only: nobody's face is made to move or speak from a post (a talking photo starts from
 * one's own picture or upload).
 */
function usePictureTools(from: string) {
  const offered = useModeOffered();
  return PICTURE_TOOLS.filter(
    ({ id, result }) => offered(id) && (result === 'image' || !from.startsWith('post/')),
  );
}

/**
 * A button for each picture tool an engine serves, starting it with this picture as its photo:
 * `from` is `generation/<uuid>` (one of my results) or `post/<uuid>` (a published picture).
 */
export function PictureToolLinks({ from, testIdPrefix }: { from: string; testIdPrefix: string }) {
  const { t } = useTranslation();
  const tools = usePictureTools(from);
  return (
    <>
      {tools.map(({ id: mode }) => {
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

/**
 * The picture tools behind one "Tools" button, in a bottom sheet (a dialog on wide screens), as
 * photo apps keep their many edits out of the way of the few actions most people take: the
 * picture stays in view and the screen's main actions fit a 360 px phone. `leading` goes before
 * the tools (the result's face swap), `children` under them in a section of their own (the
 * result's repeat and profile). Nothing to offer: no button.
 */
export function PictureToolsMenu({
  from,
  testIdPrefix,
  leading,
  children,
  open: controlledOpen,
  onOpenChange,
}: {
  from: string;
  testIdPrefix: string;
  leading?: ReactNode;
  children?: ReactNode;
  /** Given, the owner keeps whether the sheet is open (to close it when an action in it ends). */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}) {
  const { t } = useTranslation();
  const tools = usePictureTools(from);
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;
  if (tools.length === 0 && !leading && !children) return null;
  return (
    <>
      <Button
        theme="light"
        block
        className="picture-tools__open"
        icon={<IconGrid size={18} />}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        data-testid={`${testIdPrefix}-tools`}
      >
        {t('result.tools')}
        <IconChevron size={16} className="picture-tools__chevron" aria-hidden="true" />
      </Button>
      <Sheet open={open} onClose={() => setOpen(false)} title={t('result.toolsTitle')}>
        <div className="picture-tools__grid" data-testid={`${testIdPrefix}-tools-sheet`}>
          {leading}
          <PictureToolLinks from={from} testIdPrefix={testIdPrefix} />
        </div>
        {children && (
          <section className="picture-tools__more" aria-label={t('result.moreActions')}>
            <h3 className="picture-tools__heading">{t('result.moreActions')}</h3>
            <div className="picture-tools__list">{children}</div>
          </section>
        )}
      </Sheet>
    </>
  );
}
