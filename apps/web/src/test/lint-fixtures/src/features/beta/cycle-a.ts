// Bad: cycle-a.ts and cycle-b.ts import each other.
import { betaCycleB } from './cycle-b';

export const betaCycleA = 'a';
export const describeB = () => betaCycleB;
