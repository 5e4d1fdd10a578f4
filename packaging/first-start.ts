// FIRST-START.txt: what a person who downloaded the archive reads before they open the file.
import type { BuildInfo } from '../electron/core/own-files.ts';
import type { Target } from './targets.ts';

const opening: Record<Target['id'], string> = {
  'linux-x64': 'In a terminal, in this folder: ./sift',
  'linux-arm64': 'In a terminal, in this folder: ./sift',
  'darwin-x64': [
    'In Terminal, in this folder: ./sift',
    'This file is not signed or notarised by Apple (it was built on Linux). macOS will refuse it at first:',
    'right-click it in Finder and choose Open, or run `xattr -d com.apple.quarantine sift` once.',
    'On Apple Silicon, macOS offers to install Rosetta 2 the first time; Sift runs under it.',
  ].join('\n'),
  'win-x64': [
    'Double-click sift.exe, or in a terminal, in this folder: .\\sift.exe',
    'This file is not signed with a code-signing certificate. Windows SmartScreen may say',
    '"Windows protected your PC": choose "More info", then "Run anyway".',
  ].join('\n'),
};

export function firstStartText(target: Target, build: BuildInfo): string {
  const exe = target.executable;
  return `Sift ${build.version} (${build.commit}) for ${target.computer}

Sift cleans email lists: drop a CSV, see what checking it costs, and get back a clean list, an annotated
copy and a summary, without losing a row. This one file is all of it: nothing else needs installing.

Start the app
${opening[target.id]}
Sift opens in your web browser at a page on this computer only (127.0.0.1), and prints that link too, in
case no browser opens. It keeps running until you press Ctrl-C in its window, close that window, or choose
Quit in the app. Nothing is sent anywhere until you choose how addresses are checked: a first start offers
a demo (scripted verdicts, clearly marked), live checks from this computer, your own Sift server, or a
hosted service. It works offline except for the checks themselves.

From a terminal
  ${exe} clean list.csv          writes list.cleaned.csv, list.annotated.csv and list.summary.json beside it
  ${exe} verify someone@example.com
  ${exe} service                 Sift's own verification service on 127.0.0.1 (${exe} service --help)
  ${exe} --version
  ${exe} --help                  every command and its options

Where your data is kept
  Linux:   ~/.config/Sift            (SIFT_DATA_DIR, or --data DIR, puts it elsewhere)
  macOS:   ~/Library/Application Support/Sift
  Windows: %APPDATA%\\Sift
The same folder the desktop app uses. Deleting this file deletes none of it.

Updates
${
  build.updateKey
    ? `  ${exe} update --check     asks whether a newer Sift is out; ${exe} update installs it, checked against the
                          release's signed SHA256SUMS, and keeps this file as sift.previous`
    : `  This build is unsigned: ${exe} update cannot check that an update is genuine, so it does not update
  itself. Download a new version by hand.`
}

LICENSES.txt lists the licences of Node.js and of every package inside this file.
`;
}
