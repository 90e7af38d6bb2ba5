import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as a PNG data URL (180 px, medium error correction), drawn once the
 * `qrcode` chunk has loaded; null until then and for no text. A newer text replaces an older one
 * still being drawn.
 */
export function useQrCode(text: string | null): string | null {
  const [drawn, setDrawn] = useState<{ text: string; url: string } | null>(null);
  useEffect(() => {
    if (!text) return;
    let isCurrent = true;
    void import('qrcode').then(({ default: QRCode }) =>
      QRCode.toDataURL(text, { width: 180, margin: 1, errorCorrectionLevel: 'M' }).then((url) => {
        if (isCurrent) setDrawn({ text, url });
      }),
    );
    return () => {
      isCurrent = false;
    };
  }, [text]);
  return drawn && drawn.text === text ? drawn.url : null;
}
