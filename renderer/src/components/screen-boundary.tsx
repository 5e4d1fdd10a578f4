// A screen that fails to render shows what went wrong and a way back, instead of blanking the whole app:
// the header, the other screens and any running job stay as they were.
import { Component, type ReactNode } from 'react';
import { go, screenTitles, type Screen } from '../stores/nav-store.ts';

type ScreenBoundaryProps = {
  /** The screen's name, as the navigation says it. */
  name: string;
  /** The screen "Back" goes to. */
  back: Screen;
  children: ReactNode;
};

type ScreenBoundaryState = { error: Error | null };

export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  state: ScreenBoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): ScreenBoundaryState {
    return { error };
  }

  componentDidCatch(error: Error): void {
    // The developer console keeps the stack; the person gets the message and a way on.
    console.error(`“${this.props.name}” failed:`, error);
  }

  render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="card card--padded" role="alert" data-testid="screen-error">
        <h2 className="card__title">“{this.props.name}” ran into a problem</h2>
        <p>
          Nothing was lost: lists, their jobs and your settings are kept by Sift, not by this screen. ({error.message})
        </p>
        <div className="card__actions">
          <button type="button" className="button button--primary" onClick={() => go(this.props.back)}>
            Back to {screenTitles[this.props.back]}
          </button>
          <button type="button" className="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
        </div>
      </section>
    );
  }
}
