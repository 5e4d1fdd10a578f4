// Which screen is shown. Every screen in the header is reachable from every other; the question of how
// addresses are checked opens on a first start and from Settings.
import { create } from 'zustand';

export const screens = [
  'clean',
  'history',
  'check',
  'connections',
  'suppression',
  'rules',
  'service',
  'settings',
] as const;
export type Screen = (typeof screens)[number] | 'setup';

export const screenTitles: Record<Screen, string> = {
  clean: 'Clean a list',
  history: 'History',
  check: 'Check one address',
  connections: 'Mailing tools',
  suppression: 'Do not mail',
  rules: 'Rules',
  service: "Sift's service",
  settings: 'Settings',
  setup: 'How addresses are checked',
};

type NavState = { screen: Screen };

export const useNavStore = create<NavState>()(() => ({ screen: 'clean' }));

export function go(screen: Screen): void {
  useNavStore.setState({ screen });
}
