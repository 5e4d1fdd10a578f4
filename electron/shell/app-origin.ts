// The renderer is served from app://sift/, never file://, so it has a real origin of its own.
export const appScheme = 'app';
export const appHost = 'sift';
export const appEntryUrl = `${appScheme}://${appHost}/index.html`;

/** True only for URLs of Sift's own pages. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${appScheme}:` && parsed.host === appHost;
  } catch {
    return false;
  }
}
