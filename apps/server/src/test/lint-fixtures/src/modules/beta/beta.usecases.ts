// Fine: another module through its index, shared plumbing, this module's own files.
import { plumbing } from '../../shared/plumbing.js';
import { alphaRule } from '../alpha/index.js';
import { betaCycleA } from './cycle-a.js';

export const betaUseCase = [plumbing, alphaRule, betaCycleA].join();
