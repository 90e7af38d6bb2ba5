// Bad: a tables file imports a module's index (it may import other tables files only).
import { betaUseCase } from '../beta/index.js';

export const alphaTableSeesBeta = { name: betaUseCase };
