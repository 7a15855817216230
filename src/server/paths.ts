import path from 'node:path';

/** The project root: where package.json, db/migrations and the releases live. */
export function projectRoot(): string {
  return process.env.APP_ROOT ? path.resolve(process.env.APP_ROOT) : process.cwd();
}

export function migrationsDir(): string {
  return path.join(projectRoot(), 'db', 'migrations');
}

export function dataDir(dir = process.env.DATA_DIR || './data'): string {
  return path.resolve(projectRoot(), dir);
}
