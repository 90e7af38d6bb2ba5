import { IconCompass, IconGallery, IconSparkles } from '../../components/ui/icons';

/** The bottom menu: Generations, Create, Explore. */
export const NAV_ITEMS = [
  { to: '/', label: 'nav.generations', Icon: IconGallery, match: (p: string) => p === '/' },
  {
    to: '/create/',
    label: 'nav.create',
    Icon: IconSparkles,
    match: (p: string) => p.startsWith('/create') || p.startsWith('/generate'),
  },
  {
    to: '/posts/top/',
    label: 'nav.explore',
    Icon: IconCompass,
    match: (p: string) => p.startsWith('/posts'),
  },
] as const;
