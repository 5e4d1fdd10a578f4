// Light, dark or as the system is: applied at once to every window (the desktop shell also turns its
// menus and dialogs), and kept for the next start.
import { useEffect } from 'react';
import type { SettingsView } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';
import { settingsActions, useSettingsStore } from '../stores/settings-store.ts';

type Appearance = SettingsView['appearance'];

const choices: [Appearance, string][] = [
  ['system', 'As the system'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** The page's colour scheme: the system's unless a person chose one (styles.css reads data-theme). */
function applyAppearance(appearance: Appearance): void {
  if (appearance === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = appearance;
}

/** Applies the saved appearance at start, and whatever is chosen later in any window. */
export function useAppearance(): void {
  useEffect(() => {
    void sift.settings
      .get()
      .then((settings) => applyAppearance(settings.appearance))
      .catch(() => undefined); // the system's colours are a fine fallback
    return sift.settings.onDidChangeAppearance(({ appearance }) => applyAppearance(appearance));
  }, []);
}

export function AppearancePicker() {
  const appearance = useSettingsStore((state) => state.settings?.appearance ?? 'system');
  return (
    <fieldset className="choices" data-testid="appearance">
      <legend className="section-title">Appearance</legend>
      {choices.map(([value, label]) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name="appearance"
            value={value}
            checked={appearance === value}
            onChange={() => void settingsActions.setAppearance(value)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
