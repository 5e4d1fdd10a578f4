// The desktop app's updates with a fake electron-updater and a fake dialog: checked at start without a
// word unless something is ready, downloaded in the background, installed only when the person says so.
import { EventEmitter } from 'node:events';
import type { MessageBoxOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { setupUpdates, updateFeedConfigured, type UpdaterPart } from '../../../electron/shell/app-updates.ts';

class FakeUpdater extends EventEmitter implements UpdaterPart {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  checks = 0;
  installs: unknown[][] = [];
  async checkForUpdates() {
    this.checks += 1;
    return null;
  }
  quitAndInstall(...args: unknown[]) {
    this.installs.push(args);
  }
}

function fakes(answer = 1) {
  const updater = new FakeUpdater();
  const shown: MessageBoxOptions[] = [];
  const dialog = {
    showMessageBox: async (options: MessageBoxOptions) => {
      shown.push(options);
      return { response: answer, checkboxChecked: false };
    },
  };
  const updates = setupUpdates({ updater, dialog, currentVersion: '0.1.0', log: () => {} });
  return { updater, shown, updates };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('desktop updates', () => {
  it('downloads in the background and never installs on quit unasked', () => {
    const { updater, updates } = fakes();
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    updates.checkAtStart();
    expect(updater.checks).toBe(1);
  });

  it('says nothing at start when there is nothing new or the check fails', async () => {
    const { updater, shown, updates } = fakes();
    updates.checkAtStart();
    updater.emit('update-not-available');
    updater.emit('error', new Error('offline'));
    updater.emit('update-available', { version: '0.2.0' });
    await settle();
    expect(shown).toEqual([]);
  });

  it('asks before installing a downloaded update; Later installs nothing', async () => {
    const { updater, shown, updates } = fakes(1);
    updates.checkAtStart();
    updater.emit('update-downloaded', { version: '0.2.0' });
    await settle();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      message: 'Sift 0.2.0 is ready to install',
      buttons: ['Restart and Install', 'Later'],
    });
    expect(updater.installs).toEqual([]);
    // From the menu, the one already downloaded is offered again rather than checked for anew.
    updates.checkFromMenu();
    await settle();
    expect(shown).toHaveLength(2);
    expect(updater.checks).toBe(1);
  });

  it('installs when the person chooses Restart and Install', async () => {
    const { updater, updates } = fakes(0);
    updates.checkAtStart();
    updater.emit('update-downloaded', { version: '0.2.0' });
    await settle();
    expect(updater.installs).toEqual([[false, true]]);
  });

  it('answers a check from the menu: newest, downloading, or why it failed', async () => {
    const { updater, shown, updates } = fakes();
    updates.checkFromMenu();
    updater.emit('update-not-available');
    updater.emit('update-available', { version: '0.2.0' });
    updater.emit('error', new Error('the feed answered 404'));
    await settle();
    expect(shown.map((options) => options.message)).toEqual([
      'Sift 0.1.0 is the newest version.',
      'Sift 0.2.0 is downloading',
      'Sift could not check for updates',
    ]);
    expect(shown[2]!.detail).toBe('the feed answered 404');
  });

  it('runs only in an installed build whose feed was set when it was built', () => {
    const has = (path: string) => path === '/opt/Sift/resources/app-update.yml';
    expect(updateFeedConfigured(true, '/opt/Sift/resources', has)).toBe(true);
    expect(updateFeedConfigured(false, '/opt/Sift/resources', has)).toBe(false);
    expect(updateFeedConfigured(true, '/elsewhere', has)).toBe(false);
  });
});
