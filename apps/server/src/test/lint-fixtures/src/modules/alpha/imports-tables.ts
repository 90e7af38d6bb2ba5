// Bad: a use case touches its own module's tables past the repository.
import { alphaTable } from './alpha.tables.js';

export const alphaUseCaseSeesTable = alphaTable.name;
