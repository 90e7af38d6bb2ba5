import { create } from 'zustand';
import { applyTheme, readThemeSetting, setTheme, type ThemeSetting } from '../theme/theme';

/** How long the top notification stays. */
export const TOPINFO_MS = 2000;

export type TopinfoType = 'success' | 'error' | 'info';

interface AppState {
  /** The full-screen loading overlay. */
  preloader: boolean;
  topinfo: { type: TopinfoType; text: string; id: number } | null;
  authPopup: boolean;
  /** Where a cancelled navigation wanted to go; visited after signing in from the popup. */
  authTarget: string | null;
  /**
   * What the sign-in gate is keeping from a guest, shown in the popup so it explains itself (a
   * shared post: its picture, blurred, and who made it); null on other pages.
   */
  authGlimpse: { picture: string | null; text: string } | null;
  theme: ThemeSetting;
  setPreloader(on: boolean): void;
  showTopinfo(type: TopinfoType, text?: string): void;
  clearTopinfo(): void;
  openAuthPopup(target?: string | null): void;
  closeAuthPopup(): void;
  setAuthGlimpse(glimpse: AppState['authGlimpse']): void;
  setTheme(theme: ThemeSetting): void;
}

let topinfoTimer: ReturnType<typeof setTimeout> | null = null;
let topinfoSeq = 0;

export const useAppStore = create<AppState>()((set) => ({
  preloader: false,
  topinfo: null,
  authPopup: false,
  authTarget: null,
  authGlimpse: null,
  theme: readThemeSetting(),
  setPreloader: (preloader) => set({ preloader }),
  showTopinfo(type, text = '') {
    if (topinfoTimer) clearTimeout(topinfoTimer);
    topinfoSeq += 1;
    set({ topinfo: { type, text, id: topinfoSeq } });
    topinfoTimer = setTimeout(() => set({ topinfo: null }), TOPINFO_MS);
  },
  clearTopinfo() {
    if (topinfoTimer) clearTimeout(topinfoTimer);
    set({ topinfo: null });
  },
  openAuthPopup: (target = null) => set({ authPopup: true, authTarget: target }),
  closeAuthPopup: () => set({ authPopup: false, authTarget: null }),
  setAuthGlimpse: (authGlimpse) => set({ authGlimpse }),
  setTheme(theme) {
    setTheme(theme);
    set({ theme });
  },
}));

/** Paints the stored theme; called once before the first render. */
export function initTheme(): void {
  applyTheme(useAppStore.getState().theme);
}
