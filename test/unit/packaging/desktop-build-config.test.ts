// The desktop installers' build configuration, held to what issue 36 asks of it: Electron's fuses, the
// installers for each platform, the update feed from the environment, and the window's security unchanged.
import { describe, expect, it } from 'vitest';
import { desktopBuildConfig, updateFeedFrom } from '../../../packaging/desktop/builder-config.ts';
import { electronDownloadUrl, electronReachable } from '../../../packaging/dist-desktop.ts';
import { mainWindowOptions } from '../../../electron/shell/window-options.ts';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

describe('the desktop build', () => {
  it('sets the fuses: no RunAsNode, no NODE_OPTIONS or inspect flags, only the asar, its integrity checked', () => {
    expect(desktopBuildConfig({}).electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(desktopBuildConfig({}).asar).toBe(true);
  });

  it('builds AppImage and deb, dmg and NSIS, with a desktop package that does not clash with the server one', () => {
    const config = desktopBuildConfig({});
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    // electron-updater's macOS updater installs from the zip: a dmg alone cannot be updated.
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.deb?.packageName).toBe('sift-desktop');
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**', 'dist/renderer/**']));
  });

  it('names the Windows publisher, so an installed copy takes only an update signed by it', () => {
    expect(desktopBuildConfig({}).win).toMatchObject({
      verifyUpdateCodeSignature: true,
      signtoolOptions: { publisherName: 'Sift developers' },
    });
    expect(desktopBuildConfig({ SIFT_WIN_PUBLISHER: 'Example Ltd' }).win?.signtoolOptions?.publisherName).toBe(
      'Example Ltd',
    );
  });

  it('takes the update feed from SIFT_UPDATE_URL, and without one writes none (no update checks)', () => {
    expect(desktopBuildConfig({}).publish).toBeNull();
    expect(desktopBuildConfig({ SIFT_UPDATE_URL: 'https://updates.example.com/sift/' }).publish).toEqual([
      { provider: 'generic', url: 'https://updates.example.com/sift/' },
    ]);
    expect(updateFeedFrom({ SIFT_UPDATE_URL: 'http://127.0.0.1:8080/feed' })).toBe('http://127.0.0.1:8080/feed');
    expect(() => updateFeedFrom({ SIFT_UPDATE_URL: 'http://updates.example.com/' })).toThrow(/must be https/);
    expect(() => updateFeedFrom({ SIFT_UPDATE_URL: 'not a url' })).toThrow(/not a URL/);
    expect(() => updateFeedFrom({ SIFT_UPDATE_URL: 'https://user:pw@updates.example.com/' })).toThrow(/credentials/);
  });

  it('keeps the window locked down: no Node, a sandbox, isolated context', () => {
    expect(mainWindowOptions('/p.cjs', '/i.png').webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('says why Electron cannot be fetched before building anything', async () => {
    expect(electronDownloadUrl('45.4.1', {})).toBe(
      'https://github.com/electron/electron/releases/download/v45.4.1/SHASUMS256.txt',
    );
    const server = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const mirror = `http://127.0.0.1:${port}/mirror`;
    expect(electronDownloadUrl('45.4.1', { ELECTRON_MIRROR: mirror })).toBe(`${mirror}/v45.4.1/SHASUMS256.txt`);
    expect(await electronReachable(electronDownloadUrl('45.4.1', { ELECTRON_MIRROR: mirror }))).toBe(
      'it answered HTTP 404',
    );
    await new Promise((resolve) => server.close(resolve));
    expect(await electronReachable(`http://127.0.0.1:${port}/gone`)).toMatch(/ECONNREFUSED/);
  });
});

describe('npm run dist:desktop where Electron cannot be fetched', () => {
  it('stops before building, naming what it could not fetch', () => {
    const run = spawnSync(process.execPath, ['packaging/dist-desktop.ts'], {
      env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/electron/' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('binaries for the installers could not be fetched from');
    expect(run.stderr).toContain('http://127.0.0.1:9/electron/v');
    expect(run.stderr).toContain('nothing was built');
  });
});
