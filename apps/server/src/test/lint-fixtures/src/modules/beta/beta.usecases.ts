// Fine: another module and the engines through their index, shared plumbing, own files.
import { engineName } from '../../engines/index.js';
import { plumbing } from '../../shared/plumbing.js';
import { alphaRule } from '../alpha/index.js';
import { betaCycleA } from './cycle-a.js';

export const betaUseCase = [engineName, plumbing, alphaRule, betaCycleA].join();
