import { isLanguage, type TLanguage } from '@mirra/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button } from '../../../components/ui/button';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { isInTelegram } from '../../../lib/telegram';
import { LANGUAGE_NAMES, LANGUAGES, loadLanguageTexts } from '../../../lib/i18n';

/** Common banner sizes: a square post, a story, a link preview. */
const BANNERS = [
  { id: 'square', width: 1080, height: 1080 },
  { id: 'story', width: 1080, height: 1920 },
  { id: 'landscape', width: 1200, height: 628 },
] as const;
type Banner = (typeof BANNERS)[number];

const TEXTS = ['text1', 'text2', 'text3'] as const;

const token = (name: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || undefined;

/** Draws a banner with the reflink and its QR code (the `qrcode` package renders it). */
async function drawBanner(
  canvas: HTMLCanvasElement,
  banner: Banner,
  reflink: string,
  title: string,
  cta: string,
) {
  const { default: QRCode } = await import('qrcode');
  canvas.width = banner.width;
  canvas.height = banner.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const gradient = ctx.createLinearGradient(0, 0, banner.width, banner.height);
  gradient.addColorStop(0, token('--color-brand-1') ?? 'purple');
  gradient.addColorStop(0.6, token('--color-brand-2') ?? 'deeppink');
  gradient.addColorStop(1, token('--color-brand-3') ?? 'orange');
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, banner.width, banner.height);
  const light = token('--color-accent-contrast') ?? 'white';
  const dark = token('--color-black') ?? 'black';
  const unit = Math.min(banner.width, banner.height);
  const landscape = banner.width > banner.height;
  const qrSize = Math.round(unit * (landscape ? 0.62 : 0.46));
  const qrX = landscape ? banner.width - qrSize - unit * 0.1 : (banner.width - qrSize) / 2;
  const qrY = landscape ? (banner.height - qrSize) / 2 : banner.height * 0.5 - qrSize / 2 + unit * 0.08;
  const qr = document.createElement('canvas');
  await QRCode.toCanvas(qr, reflink, {
    width: qrSize,
    margin: 2,
    errorCorrectionLevel: 'M',
    color: { dark, light },
  });
  ctx.fillStyle = light;
  const pad = unit * 0.025;
  ctx.fillRect(qrX - pad, qrY - pad, qrSize + pad * 2, qrSize + pad * 2);
  ctx.drawImage(qr, qrX, qrY, qrSize, qrSize);
  ctx.fillStyle = light;
  ctx.textBaseline = 'top';
  const left = landscape ? unit * 0.1 : banner.width / 2;
  ctx.textAlign = landscape ? 'left' : 'center';
  const maxText = landscape ? qrX - left - unit * 0.08 : banner.width * 0.86;
  ctx.font = `800 ${Math.round(unit * 0.085)}px system-ui, sans-serif`;
  ctx.fillText('Mirra', left, landscape ? unit * 0.14 : banner.height * 0.08, maxText);
  const ctaY = landscape ? unit * 0.62 : qrY + qrSize + unit * 0.07;
  // The title wraps within the room above the QR code (beside it on a landscape banner); a title
  // that would run into the code is set smaller until it fits.
  const titleY = landscape ? unit * 0.3 : banner.height * 0.08 + unit * 0.13;
  const titleBottom = landscape ? ctaY - unit * 0.04 : qrY - pad - unit * 0.02;
  let size = unit * 0.058;
  let lines: string[];
  for (;;) {
    ctx.font = `700 ${Math.round(size)}px system-ui, sans-serif`;
    lines = wrapLines(ctx, title, maxText);
    if (titleY + lines.length * size * 1.2 <= titleBottom || size <= unit * 0.03) break;
    size *= 0.92;
  }
  lines.forEach((line, row) => ctx.fillText(line, left, titleY + row * size * 1.2, maxText));
  ctx.font = `600 ${Math.round(unit * 0.04)}px system-ui, sans-serif`;
  ctx.fillText(cta, left, ctaY, maxText);
  ctx.font = `500 ${Math.round(unit * 0.028)}px system-ui, sans-serif`;
  ctx.fillText(reflink, left, ctaY + unit * 0.065, maxText);
}

/** The text's words in lines no wider than `width` in the context's font. */
function wrapLines(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

function download(href: string, name: string) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

function BannerPreview({
  banner,
  reflink,
  promoT,
  language,
}: {
  banner: Banner;
  reflink: string;
  promoT: TFunction;
  language: TLanguage;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const title = promoT('partners.promo.bannerTitle');
  const cta = promoT('partners.promo.bannerCta');
  useEffect(() => {
    if (canvas.current) void drawBanner(canvas.current, banner, reflink, title, cta);
  }, [banner, reflink, title, cta]);
  return (
    <div className="partner-banner" data-testid={`banner-${banner.id}`}>
      <canvas
        ref={canvas}
        width={banner.width}
        height={banner.height}
        aria-label={`${banner.width}×${banner.height}`}
      />
      <span className="partner-muted">
        {banner.width}×{banner.height}
      </span>
      <Button
        theme="light"
        size="sm"
        onClick={() =>
          canvas.current &&
          download(canvas.current.toDataURL('image/png'), `mirra-${banner.id}-${language}.png`)
        }
      >
        {t('partners.promo.download')}
      </Button>
    </div>
  );
}

/**
 * Banners in common sizes with my reflink and its QR code, and ready-made texts to copy or save,
 * in any of the app's languages (the partner's audience may speak another than they do). Inside
 * the Mini App the texts carry the Mini App link (`startapp`): they are shared in Telegram chats,
 * where it opens Mirra in Telegram with my referral, without a browser.
 */
export function PromoMaterials({
  reflink,
  telegramReflink = null,
}: {
  reflink: string;
  telegramReflink?: string | null;
}) {
  const { t, i18n } = useTranslation();
  const textLink = isInTelegram() && telegramReflink ? telegramReflink : reflink;
  const showTopinfo = useAppStore((s) => s.showTopinfo);
  const ui = i18n.resolvedLanguage ?? i18n.language;
  const [language, setLanguage] = useState<TLanguage>(isLanguage(ui) ? ui : 'en');
  const [loaded, setLoaded] = useState<TLanguage | null>(language === ui ? language : null);
  // The language whose texts failed to load, and the attempt (a retry loads again).
  const [failed, setFailed] = useState<{ language: TLanguage; attempt: number } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    loadLanguageTexts(language, ['partners'], i18n).then(
      () => current && setLoaded(language),
      () => current && setFailed({ language, attempt }),
    );
    return () => {
      current = false;
    };
  }, [language, i18n, attempt]);
  const loadFailed = failed?.language === language && failed.attempt === attempt;
  const promoT = i18n.getFixedT(loaded ?? language);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showTopinfo('success', t('common.copied'));
    } catch {
      showTopinfo('error', t('common.copyFailed'));
    }
  };
  return (
    <section className="card" data-testid="partner-promo">
      <span className="card__label">{t('partners.promo.title')}</span>
      {/* Six languages as the app's chips (one choice, wrapping on a phone), each in its own name. */}
      <SegmentedChoice
        title={t('partners.promo.language')}
        value={language}
        onChange={setLanguage}
        classes={{ group: 'chips', item: () => 'chip' }}
        options={LANGUAGES.map((code) => ({
          value: code,
          label: <span lang={code}>{LANGUAGE_NAMES[code]}</span>,
          testId: `promo-language-${code}`,
        }))}
      />
      {loadFailed && (
        <div className="partner-actions">
          <span className="partner-muted">{t('partners.promo.languageFailed')}</span>
          <Button theme="light" size="sm" onClick={() => setAttempt((n) => n + 1)}>
            {t('partners.promo.retry')}
          </Button>
        </div>
      )}
      {loaded !== language && !loadFailed && <Spinner />}
      <strong>{t('partners.promo.banners')}</strong>
      <div className="partner-banners">
        {BANNERS.map((banner) => (
          <BannerPreview
            key={banner.id}
            banner={banner}
            reflink={reflink}
            promoT={promoT}
            language={loaded ?? language}
          />
        ))}
      </div>
      <strong>{t('partners.promo.texts')}</strong>
      {TEXTS.map((key) => {
        const text = promoT(`partners.promo.${key}`, {
          link: textLink,
          interpolation: { escapeValue: false },
        });
        return (
          <div key={key} className="partner-section" data-testid={`promo-${key}`}>
            <p className="partner-text" lang={loaded ?? language}>
              {text}
            </p>
            <div className="partner-actions">
              <Button theme="light" size="sm" onClick={() => void copy(text)}>
                {t('partners.promo.copyText')}
              </Button>
              <Button
                theme="light"
                size="sm"
                onClick={() => {
                  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
                  download(url, `mirra-${key}-${loaded ?? language}.txt`);
                  setTimeout(() => URL.revokeObjectURL(url), 1000);
                }}
              >
                {t('partners.promo.downloadText')}
              </Button>
            </div>
          </div>
        );
      })}
    </section>
  );
}
