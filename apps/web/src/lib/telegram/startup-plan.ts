/**
 * What the app asks of Telegram on start, by the client's Mini Apps version: always
 * expand; vertical swipes off from 7.7; fullscreen from 8.0; write access from 6.9.
 */
export interface TelegramStartupPlan {
  expand: boolean;
  disableVerticalSwipes: boolean;
  requestFullscreen: boolean;
  requestWriteAccess: boolean;
}

/** Compares dotted versions numerically: "7.10" is newer than "7.7". */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const pb = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}

export const atLeast = (version: string, minimum: string) => compareVersions(version, minimum) >= 0;

export function telegramStartupPlan(
  version: string,
  options: { allowsWrite?: boolean } = {},
): TelegramStartupPlan {
  return {
    expand: true,
    disableVerticalSwipes: atLeast(version, '7.7'),
    requestFullscreen: atLeast(version, '8.0'),
    requestWriteAccess: atLeast(version, '6.9') && !options.allowsWrite,
  };
}
