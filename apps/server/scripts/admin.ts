// `npm run admin -- grant <email> [--role moderator|admin]` (from the repository root): makes a
// person staff; `npm run admin -- revoke <email>` takes the role away. Uses DATABASE_URL, or the
// embedded PostgreSQL of DATA_DIR: the running server's when it is up (never stopped by this
// command), else one started for the command and stopped after it.
import path from 'node:path';
import { STAFF_ROLES, type TStaffRole } from '@mirra/contracts';
import { parseConfig } from '../src/shared/config.js';
import { connectDatabase, type Database } from '../src/shared/db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/shared/db/embedded-postgres.js';
import { migrateDatabase } from '../src/shared/db/migrate.js';
import { createLogger } from '../src/shared/logger.js';
import { loadOrCreateSecrets } from '../src/shared/secrets.js';
import { grantStaffRole } from '../src/modules/admin/index.js';

const USAGE =
  'Usage: npm run admin -- grant <email> [--role moderator|admin]\n       npm run admin -- revoke <email>';

function parseArgs(argv: string[]): { email: string; role: TStaffRole | null } | null {
  const [command, email, ...rest] = argv;
  if (!email || (command !== 'grant' && command !== 'revoke')) return null;
  if (command === 'revoke') return rest.length === 0 ? { email, role: null } : null;
  if (rest.length === 0) return { email, role: 'admin' };
  const value =
    rest[0] === '--role' ? rest[1] : rest[0]?.startsWith('--role=') ? rest[0].slice(7) : undefined;
  if (rest.length > (rest[0] === '--role' ? 2 : 1)) return null;
  return value && (STAFF_ROLES as readonly string[]).includes(value)
    ? { email, role: value as TStaffRole }
    : null;
}

async function openDatabase(): Promise<{ database: Database; embedded?: EmbeddedPostgresHandle }> {
  const config = parseConfig();
  if (config.databaseUrl) return { database: connectDatabase(config.databaseUrl, 2) };
  const secrets = await loadOrCreateSecrets(config.dataDir);
  // A running Mirra's PostgreSQL is used on the port its postmaster.pid names (whatever
  // EMBEDDED_PG_PORT this shell has) and left running; with none, one is started for the command.
  const embedded = await startEmbeddedPostgres({
    dir: path.join(config.dataDir, 'pg'),
    port: config.embeddedPgPort,
    password: secrets.embeddedPgPassword,
    database: 'mirra',
    logger: createLogger('warn'),
    whenOwned: 'share',
  });
  return { database: connectDatabase(embedded.connectionString('mirra'), 2), embedded };
}

const args = parseArgs(process.argv.slice(2));
if (!args) {
  console.error(USAGE);
  process.exitCode = 2;
} else {
  const { database, embedded } = await openDatabase();
  try {
    await migrateDatabase(database);
    const outcome = await grantStaffRole({ db: database.db, now: () => new Date() }, args.email, args.role);
    if (!outcome.found) {
      console.error(`No account with the email ${args.email}. Register it first, then run this again.`);
      process.exitCode = 1;
    } else if (!outcome.changed) {
      console.log(`${args.email} already ${args.role ? `is ${args.role}` : 'has no staff role'}.`);
    } else {
      console.log(args.role ? `${args.email} is now ${args.role}.` : `${args.email} is no longer staff.`);
    }
  } finally {
    await database.close();
    await embedded?.stop();
  }
}
