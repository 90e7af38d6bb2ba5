import { betaCycleA } from './cycle-a.js';

export const betaCycleB = () => betaCycleA;
