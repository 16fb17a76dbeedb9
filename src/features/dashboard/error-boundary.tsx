import { Component, type ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** Keeps one broken pane (the chart, the map) from taking the dashboard with it. */
export class PaneBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) {
      return (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={`The ${this.props.name} could not be shown`}>
          {this.state.error.message}
        </Alert>
      );
    }
    return this.props.children;
  }
}
