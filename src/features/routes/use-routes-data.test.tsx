// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { RoutesApi } from './routes-api';
import { useRouteTasks, useTaskReadings } from './use-routes-data';

const failing = (err: unknown) => ({ list: () => Promise.reject(err), readings: () => Promise.reject(err) }) as unknown as RoutesApi;
const serverError = Object.assign(new Error('relation "route_tasks" does not exist'), { name: 'ApiError', status: 500, code: 'INTERNAL' });

describe('route list and task readings: a failed load reads the spec messages (organisation-and-routes 5)', () => {
  afterEach(cleanup);

  it.each([
    ['no connection', new TypeError('Failed to fetch'), 'Unable to connect to the product. Please check your internet connection and try again.'],
    ['a server error with raw text', serverError, 'Something went wrong.'],
  ])('%s', async (_, err, message) => {
    const list = renderHook(() => useRouteTasks(failing(err)));
    await waitFor(() => expect(list.result.current.state).toEqual({ status: 'error', message }));
    const readings = renderHook(() => useTaskReadings(failing(err), 'task-1'));
    await waitFor(() => expect(readings.result.current.state).toEqual({ status: 'error', message }));
  });
});
