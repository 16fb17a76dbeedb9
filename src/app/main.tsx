import './react-dom-init'; // first: its own step of the staged entry
import '../contract/csp-safe-zod'; // jitless Zod (also set by /zod-jitless.js before any chunk runs)
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { App } from './app';
import { BootErrorPage } from './pages/boot-error-page';
import { liveAuthMachine } from './auth-actors';
import { configureIdentity, loadClientConfig } from '../shared/amplify';
import { installClientErrorReporting } from '../shared/client-errors';
import { warmIntlOffMainThread } from '../shared/intl-warm';

const root = createRoot(document.getElementById('root')!);

/** The app edge: runtime config first, then Amplify and the gateway, then the auth machine, then the UI. */
async function boot() {
  warmIntlOffMainThread();
  const config = await loadClientConfig();
  installClientErrorReporting({ endpoint: config.api.endpoint, sampleRate: config.clientErrors?.sampleRate ?? 0.1, release: typeof __BUILD_DATE__ === 'string' ? __BUILD_DATE__ : undefined });
  const auth = createActor(liveAuthMachine);
  // A signed call that finds no usable token is a failed token check: it un-authenticates.
  configureIdentity(config, () => auth.send({ type: 'SESSION_EXPIRED' }));
  auth.start();
  // As a transition React renders the app in slices of about 5 ms, yielding to the browser between
  // them, and so do the retries of its lazy levels as their code comes in: a signed-in page's load
  // has fewer and shorter tasks over 50 ms with no later first rows (benchmark 22,
  // docs/performance.md).
  startTransition(() =>
    root.render(
      <StrictMode>
        <App config={config} auth={auth} />
      </StrictMode>,
    ),
  );
}

boot().catch((err: unknown) => {
  root.render(<BootErrorPage error={err} />);
});
