import { Loader } from '@mantine/core';
import { Suspense, lazy } from 'react';

const Offer = lazy(() => import('./recovery-codes-offer').then((m) => ({ default: m.RecoveryCodesOffer })));

/**
 * The recovery codes offer, loaded when a sign-in reaches it: its form and the recovery codes'
 * code stay out of the login page's first load (issue 34's 250 KiB budget, tests/e2e/bundles.test.ts).
 */
export function RecoveryCodesOffer(props: { onContinue: () => void }) {
  return (
    <Suspense fallback={<Loader aria-label="Loading" m="xl" />}>
      <Offer {...props} />
    </Suspense>
  );
}
