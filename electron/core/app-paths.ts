// Where Sift keeps its data when it runs without Electron: the same folder Electron's
// app.getPath('userData') gives for an app named "Sift", so both ways of running share it.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const appName = 'Sift';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SIFT_DATA_DIR) return env.SIFT_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), appName);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', appName);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), appName);
}

/**
 * Where Sift keeps what it can always make again (this user's, never shared with another): the platform's
 * cache folder, apart from the data so that clearing caches loses no list.
 */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), appName, 'Cache');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', appName);
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), appName);
}
