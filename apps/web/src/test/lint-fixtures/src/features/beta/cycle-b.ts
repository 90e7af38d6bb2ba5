// Bad: cycle-b.ts and cycle-a.ts import each other.
import { betaCycleA } from './cycle-a';

export const betaCycleB = 'b';
export const describeA = () => betaCycleA;
