import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ProblemDisplay } from '../problems/problem-display.js';
import { problemOf } from '../problems/problem-of.js';
import { reportClientError } from '../reporting/report-client-error.js';

/** Catches a page that failed to render: reports it and shows a problem instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    reportClientError(error, 'render');
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <ProblemDisplay problem={problemOf(this.state.error)} onRetry={() => window.location.reload()} />;
  }
}
