// Bad: a repository reads the schema index instead of its own tables file.
import { betaTable } from '../../shared/db/schema.js';

export const betaSeesSchema = betaTable.name;
