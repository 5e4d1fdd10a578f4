// Proves the layer rules fire: each snippet is linted as if it lived at the given path.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    ['electron/core/lists/fixture.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['electron/cli/fixture.ts', "import { ipcMain } from 'electron';\nexport const a = ipcMain;\n"],
    [
      'electron/core/fixture.ts',
      "import { mainWindowOptions } from '../shell/window-options.ts';\nexport const a = mainWindowOptions;\n",
    ],
    ['renderer/src/fixture.ts', "import { readFile } from 'node:fs/promises';\nexport const a = readFile;\n"],
    ['renderer/src/fixture.ts', "import { readFile } from 'fs';\nexport const a = readFile;\n"],
    ['renderer/src/fixture.tsx', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n"],
    [
      'renderer/src/fixture.ts',
      "import { previewCsv } from '../../electron/core/lists/csv-preview.ts';\nexport const a = previewCsv;\n",
    ],
    ['electron/common/fixture.ts', "import { join } from 'node:path';\nexport const a = join;\n"],
    [
      'electron/common/fixture.ts',
      "import { createDispatch } from '../core/app/dispatch.ts';\nexport const a = createDispatch;\n",
    ],
  ])('%s: %s is refused', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      'electron/shell/fixture.ts',
      "import { app } from 'electron';\nimport { createDispatch } from '../core/app/dispatch.ts';\nexport const a = [app, createDispatch];\n",
    ],
    [
      'electron/core/fixture.ts',
      "import { readFile } from 'node:fs/promises';\nimport { calls } from '../common/contract.ts';\nexport const a = [readFile, calls];\n",
    ],
    [
      'renderer/src/fixture.ts',
      "import { calls } from '../../electron/common/contract.ts';\nexport const a = calls;\n",
    ],
  ])('%s: allowed imports pass', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});
