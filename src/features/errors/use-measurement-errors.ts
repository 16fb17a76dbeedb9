import { useEffect, useState } from 'react';
import { measurementErrorPageSchema, type MeasurementError } from '../../contract/measurement.schema';
import { messageForError } from '../../domain/messages';
import { api } from '../../shared/api';

export type ErrorsLoad = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; errors: MeasurementError[]; truncated: boolean };

/** More than this many errors in one range is a sensor to look at, not a list to read: stop paging. */
export const MAX_ERRORS = 20_000;

/** All measurement errors of a sensor in [start, end], following the paging cursor (site admins). */
export function useMeasurementErrors(sensorId: string, start: number, end: number, attempt: number): ErrorsLoad {
  const [state, setState] = useState<ErrorsLoad>({ status: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: 'loading' });
    (async () => {
      // loading requires start not greater than end (monitoring-client 5)
      if (start > end) throw Object.assign(new Error('The start of the range is after its end.'), { code: 'INVALID_DATE_RANGE' });
      const errors: MeasurementError[] = [];
      let cursor: string | undefined;
      do {
        const page = await api.get(`/admin/sensors/${sensorId}/measurement-errors`, {
          query: { order: 'desc', startTime: start, endTime: end, start: cursor },
          schema: measurementErrorPageSchema,
          signal: ctrl.signal,
        });
        errors.push(...page.measurementErrors);
        cursor = page.next ?? undefined;
      } while (cursor && errors.length < MAX_ERRORS);
      if (!ctrl.signal.aborted) setState({ status: 'ready', errors, truncated: Boolean(cursor) });
    })().catch((err: unknown) => {
      // the spec's message for what failed, never the raw 'Failed to fetch' or a server body
      if (!ctrl.signal.aborted) setState({ status: 'error', message: messageForError(err) });
    });
    return () => ctrl.abort();
  }, [sensorId, start, end, attempt]);
  return state;
}
