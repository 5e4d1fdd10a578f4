// Which screen is shown. Every screen is reachable from every other through the header.
import { create } from 'zustand';

export const screens = ['clean', 'history', 'check', 'service', 'settings'] as const;
export type Screen = (typeof screens)[number];

export const screenTitles: Record<Screen, string> = {
  clean: 'Clean a list',
  history: 'History',
  check: 'Check one address',
  service: "Sift's service",
  settings: 'Settings',
};

type NavState = { screen: Screen };

export const useNavStore = create<NavState>()(() => ({ screen: 'clean' }));

export function go(screen: Screen): void {
  useNavStore.setState({ screen });
}
