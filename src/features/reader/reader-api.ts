import { ApiError, api } from '../../shared/api';
import { organisationListSchema, type Organisation } from '../../contract/organisation.schema';
import { readerTaskListSchema, readerTaskSchema, type ReaderTask } from '../../contract/reader.schema';
import { IDEMPOTENCY_KEY_HEADER, meterReadingAnswerSchema, type MeterReadingAnswer } from '../../contract/route.schema';
import type { Capture, UploadFailure } from '../../../machines/reader-sync.machine';

/** The organisations where I can be assigned route tasks (those with the meterReading feature). */
export async function readerOrganisations(): Promise<Organisation[]> {
  const { organisations } = await api.get('/organisations', { schema: organisationListSchema });
  return organisations.filter((o) => o.features.meterReading);
}

/** My assigned tasks (not exported) with their readings, in one request per organisation. */
export async function assignedTasks(orgId: string): Promise<ReaderTask[]> {
  return (await api.get(`/organisations/${orgId}/reader/tasks`, { schema: readerTaskListSchema })).tasks;
}

/** One task of mine with its readings: the download for offline use. */
export const downloadTask = (orgId: string, taskId: string) => api.get(`/organisations/${orgId}/reader/tasks/${taskId}`, { schema: readerTaskSchema });

/** The record call with the capture's idempotency key; a failure is an UploadFailure for the sync machine. */
export async function uploadCapture(c: Capture): Promise<MeterReadingAnswer> {
  try {
    return await api.put(`/organisations/${c.orgId}/routes/${c.taskId}/meter-readings/${c.readingId}/record`, c.body, {
      schema: meterReadingAnswerSchema,
      headers: { [IDEMPOTENCY_KEY_HEADER]: c.id },
    });
  } catch (err) {
    const failure: UploadFailure =
      err instanceof ApiError ? { status: err.status === 0 ? undefined : err.status, code: err.code, message: err.message } : { message: (err as Error).message };
    throw failure;
  }
}
