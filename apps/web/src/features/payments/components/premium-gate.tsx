import type { ReactNode } from 'react';
import { usePremiumState } from '../hooks/use-premium-state';

/** Shows its children (an offer of premium) unless the signed-in person already has premium. */
export default function PremiumGate({ children }: { children: ReactNode }) {
  const hasPremium = usePremiumState()?.premium === true;
  return hasPremium ? null : children;
}
