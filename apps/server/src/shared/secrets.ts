import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Secrets the server generates on first start and keeps in DATA_DIR, so a fresh machine needs no setup. */
export interface LocalSecrets {
  jwtSecret: string;
  embeddedPgPassword: string;
}

/**
 * The secrets a start needs. When JWT_SECRET and DATABASE_URL are both set, nothing of
 * DATA_DIR/secrets.json would be used (its JWT secret is overridden, its database password is only
 * for the embedded PostgreSQL), so the file is neither read nor written: a node may run with a
 * read-only (or missing) DATA_DIR.
 */
export async function secretsForStart(config: {
  dataDir: string;
  jwtSecret?: string | undefined;
  databaseUrl?: string | undefined;
}): Promise<{ jwtSecret: string; embeddedPgPassword: string | undefined }> {
  if (config.jwtSecret && config.databaseUrl) {
    return { jwtSecret: config.jwtSecret, embeddedPgPassword: undefined };
  }
  const stored = await loadOrCreateSecrets(config.dataDir);
  return { jwtSecret: config.jwtSecret ?? stored.jwtSecret, embeddedPgPassword: stored.embeddedPgPassword };
}

/** Reads DATA_DIR/secrets.json, creating it (mode 600) with fresh random values when missing. */
export async function loadOrCreateSecrets(dataDir: string): Promise<LocalSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<LocalSecrets>;
    if (stored.jwtSecret && stored.embeddedPgPassword) return stored as LocalSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: LocalSecrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    embeddedPgPassword: randomBytes(24).toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true });
  // 'wx' fails if another process created it meanwhile; then read theirs.
  try {
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(file, 'utf8')) as LocalSecrets;
  }
}
