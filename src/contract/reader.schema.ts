import { z } from 'zod';
import { meterReadingSchema, routeTaskSchema } from './route.schema';

/**
 * The meter reader's app (issue 33): what it downloads beyond route.schema's calls.
 *
 * | call | answer | who |
 * |---|---|---|
 * | GET /organisations/{orgId}/reader/tasks | ReaderTaskList | any member: the tasks assigned to the caller, not exported, each with its readings |
 * | GET /organisations/{orgId}/reader/tasks/{taskId} | ReaderTask | the user the task is assigned to (others 403 NOT_ASSIGNED) |
 *
 * Strangers get 404 (ORGANISATION_NOT_FOUND), an organisation without the meterReading feature
 * 404 (FEATURE_NOT_ENABLED). Readings come in sequence order.
 */
export const readerTaskSchema = z.object({ task: routeTaskSchema, readings: z.array(meterReadingSchema) });
export type ReaderTask = z.infer<typeof readerTaskSchema>;
export const readerTaskListSchema = z.object({ tasks: z.array(readerTaskSchema) });
export type ReaderTaskList = z.infer<typeof readerTaskListSchema>;
