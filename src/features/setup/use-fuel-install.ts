import { useEffect, useState } from 'react';
import { fuelInstallResponseSchema, type FuelInstall } from '../../contract/sensor.schema';
import { api } from '../../shared/api';

export type FuelInstallState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; record: FuelInstall | null };

/** GET .../fuel-install/ for a sensor: whether the Installation Record section shows, and what it shows. */
export function useFuelInstall(orgId: string, sensorId: string): FuelInstallState {
  const [state, setState] = useState<FuelInstallState>({ status: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: 'loading' });
    api
      .get(`/organisations/${orgId}/sensors/${sensorId}/fuel-install/`, { schema: fuelInstallResponseSchema, signal: ctrl.signal })
      .then((r) => !ctrl.signal.aborted && setState({ status: 'ready', record: r.fuelInstall }))
      .catch(() => !ctrl.signal.aborted && setState({ status: 'error' }));
    return () => ctrl.abort();
  }, [orgId, sensorId]);
  return state;
}
