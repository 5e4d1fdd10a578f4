// The desktop installers' build (electron-builder): AppImage and .deb on Linux, a .dmg on macOS (and the
// zip beside it, which electron-updater's macOS updater installs from), an NSIS installer on Windows whose
// updater installs only an update signed by the publisher named here. Electron's fuses close the ways around the app's own code (running as plain Node,
// NODE_OPTIONS, inspector flags, code outside the signed asar), and updates come from the feed given at
// build time (SIFT_UPDATE_URL), which electron-updater reads from the app-update.yml this writes.
import type { Configuration } from 'electron-builder';

/** The update feed from the environment: https, or http to this machine only (to try a build locally). */
export function updateFeedFrom(env: NodeJS.ProcessEnv): string | null {
  const feed = env.SIFT_UPDATE_URL?.trim();
  if (!feed) return null;
  let url: URL;
  try {
    url = new URL(feed);
  } catch {
    throw new Error(`SIFT_UPDATE_URL is not a URL: "${feed}".`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`SIFT_UPDATE_URL must be https (updates are code the app will run), not "${feed}".`);
  if (url.username || url.password || url.search)
    throw new Error('SIFT_UPDATE_URL must carry no credentials or query.');
  return url.href;
}

/**
 * The name on the Windows code-signing certificate (its subject's CN, exactly): the updater of an installed
 * copy checks each update's signature against it and refuses one signed by anyone else, or by no one.
 */
const defaultWindowsPublisher = 'Sift developers';

export function desktopBuildConfig(env: NodeJS.ProcessEnv = process.env): Configuration {
  const feed = updateFeedFrom(env);
  return {
    appId: 'app.sift.desktop',
    productName: 'Sift',
    copyright: 'Sift developers',
    directories: { output: 'dist/desktop', buildResources: 'assets' },
    // What the app runs: the main bundle, the preload, the renderer and the icon (dependencies the main
    // bundle loads at run time come from node_modules, as electron-builder packs production dependencies).
    files: ['dist/electron/**', 'dist/renderer/**', 'assets/icon.png', 'package.json'],
    asar: true,
    electronFuses: {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    },
    artifactName: 'Sift-${version}-${os}-${arch}.${ext}',
    linux: {
      target: ['AppImage', 'deb'],
      category: 'Office',
      icon: 'assets/icon.png',
      // Not "sift": that is the server package and the single executable (npm run dist).
      executableName: 'sift-desktop',
      synopsis: 'Clean email lists',
    },
    deb: { packageName: 'sift-desktop' },
    mac: { target: ['dmg', 'zip'], category: 'public.app-category.productivity', hardenedRuntime: true },
    win: {
      target: ['nsis'],
      verifyUpdateCodeSignature: true,
      signtoolOptions: { publisherName: env.SIFT_WIN_PUBLISHER?.trim() || defaultWindowsPublisher },
    },
    nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
    // No feed, no update checks: the app looks for app-update.yml, which only a feed writes.
    publish: feed ? [{ provider: 'generic', url: feed }] : null,
  };
}
