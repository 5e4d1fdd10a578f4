import { go, screens, screenTitles, useNavStore } from '../stores/nav-store.ts';
import './app-nav.css';

export function AppNav() {
  const screen = useNavStore((state) => state.screen);
  return (
    <nav className="app-nav" aria-label="Sift">
      {screens.map((name) => (
        <button
          key={name}
          type="button"
          className="app-nav__item"
          aria-current={name === screen ? 'page' : undefined}
          data-testid={`nav-${name}`}
          onClick={() => go(name)}
        >
          {screenTitles[name]}
        </button>
      ))}
    </nav>
  );
}
