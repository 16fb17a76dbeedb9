import { z } from 'zod';
import { MAX_TIME, multilineText, safeText, uuidSchema as uuid } from './safe-text';

/**
 * Meter-reading service routes (organisation-and-routes 2.4, 3, 4, 5, 7.3, 8, 9 and DESIGN.md
 * "Organisation, user settings and service routes"): every call's path, query, body and answer.
 * The client and the server both import this module.
 *
 * Calls (all under /api, all need the organisation's meterReading feature):
 * | call | body | answer | who |
 * |---|---|---|---|
 * | GET    /organisations/{orgId}/routes | - | RouteTaskList | members, admins, owner; a meter reader sees only the tasks assigned to them |
 * | POST   /organisations/{orgId}/routes | RouteImport | RouteTaskAnswer | admins, owner |
 * | POST   /organisations/{orgId}/special-routes | SpecialRouteCreate | RouteTaskAnswer | admins, owner |
 * | PATCH  /organisations/{orgId}/routes/{taskId} | RouteTaskPatch | RouteTaskAnswer | admins, owner |
 * | DELETE /organisations/{orgId}/routes/{taskId} | - | RouteTaskDeleted | admins, owner (unstarted tasks only) |
 * | POST   /organisations/{orgId}/route-meta-data/{name} | RouteMetadataUpsert | RouteMetadata | admins, owner |
 * | GET    /organisations/{orgId}/routes/{taskId}/meter-readings | - | MeterReadingList | members, admins, owner; the assigned meter reader |
 * | PATCH  /organisations/{orgId}/routes/{taskId}/meter-readings/{readingId} | MeterReadingPatch | MeterReadingAnswer | admins, owner |
 * | PUT    /organisations/{orgId}/routes/{taskId}/meter-readings/{readingId}/record | MeterReadingRecord | MeterReadingAnswer | the assigned user only; optional Idempotency-Key header |
 * | GET    /organisations/{orgId}/routes/{taskId}/meter-readings/{readingId}/photo | - | the image bytes | members, admins, owner |
 *
 * Strangers get 404 (ORGANISATION_NOT_FOUND), a missing role 403 (FORBIDDEN), an organisation
 * without the meterReading feature 404 (FEATURE_NOT_ENABLED). Errors are `{ code, message }`.
 */

// ---------------------------------------------------------------- codes and enums

/** Classification (route metadata `type`), shown through ROUTE_TYPE_LABELS. */
export const ROUTE_TYPES = ['commercial', 'urban', 'rural'] as const;
export const routeTypeSchema = z.enum(ROUTE_TYPES);
export type RouteType = z.infer<typeof routeTypeSchema>;
export const ROUTE_TYPE_LABELS: Record<RouteType, string> = { commercial: 'Commercial', urban: 'Urban', rural: 'Rural' };

export const EXCEPTIONS = ['NoError', 'NoConsumption', 'HighConsumption', 'NegativeConsumption', 'Abnormal', 'CantRead', 'ServiceRequired'] as const;
export const exceptionSchema = z.enum(EXCEPTIONS);
export type MeterException = z.infer<typeof exceptionSchema>;
/** How the screens and the readings CSVs name each exception. */
export const EXCEPTION_LABELS: Record<MeterException, string> = {
  NoError: 'No Error',
  NoConsumption: 'No Consumption',
  HighConsumption: 'High Consumption',
  NegativeConsumption: 'Negative Consumption',
  Abnormal: 'Abnormal',
  CantRead: "Can't Read",
  ServiceRequired: 'Service Required',
};

export const CANT_READ_CODES = ['Buried', "Can't Find", 'Car Over', 'Damaged', 'Disconnected', 'Dog', 'Flooded', 'Leaking', 'No Meter', 'Other'] as const;
export const cantReadCodeSchema = z.enum(CANT_READ_CODES);
export type CantReadCode = z.infer<typeof cantReadCodeSchema>;

export const COMMENT_CODES = [
  'Base Body Box',
  'Box Cut Away',
  'Broken Lid',
  'Buried',
  'Non RMC M/Fold',
  'No Base',
  'Reinstatement',
  'No Seal',
  'Leaking',
  'Data Incorrect',
  'Meter Damaged',
  'Property Locked',
  'Dog',
  'Other',
] as const;
export const commentCodeSchema = z.enum(COMMENT_CODES);
export type CommentCode = z.infer<typeof commentCodeSchema>;

/** Reading range (section 9): an integer from 0 to 9,999,999. -1 (or null) means not read. */
export const READING_MIN = 0;
export const READING_MAX = 9_999_999;
export const UNREAD_VALUE = -1;
/** Special route names: "SP" plus the current unix seconds (section 9). */
export const SPECIAL_ROUTE_PREFIX = 'SP';
/** At most this many readings in one import call (a 10,000-line council file fits with room). */
export const MAX_IMPORT_READINGS = 20_000;
/** A recorded photo, decoded, at most this size. */
export const MAX_PHOTO_BYTES = 4 * 1024 * 1024;

/** Error codes the meter-reading calls answer (section 8 and ours). */
export const ROUTE_ERROR_CODES = {
  NOTHING_UPDATED: 'NOTHING_UPDATED',
  SOME_METERS_NOT_FOUND: 'SOME_METERS_NOT_FOUND',
  SOME_METER_READINGS_NOT_FOUND: 'SOME_METER_READINGS_NOT_FOUND',
  DUPLICATE_METERS: 'DUPLICATE_METERS',
  FEATURE_NOT_ENABLED: 'FEATURE_NOT_ENABLED', // 404: the organisation has no meterReading feature
  ROUTE_TASK_NOT_FOUND: 'ROUTE_TASK_NOT_FOUND', // 404
  METER_READING_NOT_FOUND: 'METER_READING_NOT_FOUND', // 404
  PHOTO_NOT_FOUND: 'PHOTO_NOT_FOUND', // 404
  TASK_STARTED: 'TASK_STARTED', // 409: delete of a task with completed readings
  TASK_EXPORTED: 'TASK_EXPORTED', // 409: edit or record on an exported task
  READING_NOT_COMPLETED: 'READING_NOT_COMPLETED', // 409: edit of a reading not yet read
  READING_ALREADY_RECORDED: 'READING_ALREADY_RECORDED', // 409: record of a reading already completed
  NOT_ASSIGNED: 'NOT_ASSIGNED', // 403: record by someone the task is not assigned to
  INVALID_ASSIGNEE: 'INVALID_ASSIGNEE', // 400: assignedTo is not an active member of the organisation
  INVALID_READING: 'INVALID_READING', // 400: value/can't-read combination refused (reading rules of section 5)
  INVALID_PHOTO: 'INVALID_PHOTO', // 400: not a PNG/JPEG, or too large
  ORGANISATION_MISMATCH: 'ORGANISATION_MISMATCH', // 400: body organisationId differs from the path
  INVALID_IDEMPOTENCY_KEY: 'INVALID_IDEMPOTENCY_KEY', // 400: the Idempotency-Key header is malformed
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED', // 422: a key already answered a different record request
} as const;
export type RouteErrorCode = keyof typeof ROUTE_ERROR_CODES;

/** Section 8's user-facing messages, exactly. */
export const ROUTE_MESSAGES = {
  SOME_METERS_NOT_FOUND: 'Some meters do not exist, please make sure all the meters in the file has been previously imported.',
  SOME_METER_READINGS_NOT_FOUND: 'Some meters do not have a history reading, please make sure all the meters in the file has been previously imported.',
  DUPLICATE_METERS: 'Failed to import some file(s) as there are reading rows referring to the same property, please double check the file(s).',
  IMPORT_FAILED: 'Importing route failed, please check your internet connection and try again later.',
  IMPORT_SUCCESS: 'The routes have been imported successfully.',
  SPECIAL_ROUTE_SUCCESS: 'The special route has been created successfully.',
  CSV_FAILED: 'Failed to convert the selected route tasks into a csv file. Please check your internet connection and try again later.',
  NOTHING_UPDATED: 'Nothing is edited. Please edit something and submit again.',
  EDIT_FAILED: 'Editing meter reading failed, please check your internet connection and try again later.',
} as const;

// ---------------------------------------------------------------- pieces

const text = (max: number) => safeText.max(max);
const time = z.number().int().min(0).max(MAX_TIME);
const readingValue = z.number().int().min(READING_MIN).max(READING_MAX);
const latitude = z.number().finite().min(-90).max(90);
const longitude = z.number().finite().min(-180).max(180);

/** Where the reader stood when recording (WGS84 degrees, accuracy in metres). */
export const positionSchema = z.object({ latitude, longitude, accuracy: z.number().finite().min(0).max(100_000).optional() });
export type Position = z.infer<typeof positionSchema>;

/** The previous reading as the council file gives it: value and its read date (epoch ms). */
export const importedPrevReadingSchema = z.object({ value: readingValue, date: time });
export type ImportedPrevReading = z.infer<typeof importedPrevReadingSchema>;

export const meterInfoSchema = z.object({
  serial: z.string(),
  location: z.string(),
  propertyAddress: z.string(),
  ownerName: z.string(),
  valuationRef: z.string(),
  additionalLocationInfo: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type MeterInfo = z.infer<typeof meterInfoSchema>;

/** A member as a task's assignee or a reading's recorder. */
export const routeMemberSchema = z.object({ cognitoIdentityId: z.string(), name: z.string(), email: z.string() });
export type RouteMember = z.infer<typeof routeMemberSchema>;

// ---------------------------------------------------------------- answers

/**
 * A route task with its route metadata (suburb, classification) joined and its counts computed.
 * Progress (section 4): exported -> Exported; completedAt -> Complete; startedAt -> Active; else Waiting.
 */
export const routeTaskSchema = z.object({
  id: z.string(),
  organisationId: z.string(),
  taskNumber: z.number().int(),
  routeName: z.string(),
  group: z.string().nullable(),
  suburb: z.string().nullable(),
  /** The classification (route metadata). */
  type: routeTypeSchema.nullable(),
  isSpecial: z.boolean(),
  assignedTo: routeMemberSchema.nullable(),
  iterationNumber: z.string().nullable(),
  startedAt: z.number().nullable(),
  completedAt: z.number().nullable(),
  exported: z.boolean(),
  completedReadings: z.number().int(),
  totalReadings: z.number().int(),
  /** Completed readings whose exception is not NoError. */
  totalExceptions: z.number().int(),
  /** ms; set when the task completes (completedAt - startedAt); null while ongoing. */
  estTimeSpent: z.number().nullable(),
  createdAt: z.number(),
});
export type RouteTask = z.infer<typeof routeTaskSchema>;

export const routeTaskListSchema = z.object({ routes: z.array(routeTaskSchema) });
export type RouteTaskList = z.infer<typeof routeTaskListSchema>;
export const routeTaskAnswerSchema = z.object({ task: routeTaskSchema });
export type RouteTaskAnswer = z.infer<typeof routeTaskAnswerSchema>;
export const routeTaskDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type RouteTaskDeleted = z.infer<typeof routeTaskDeletedSchema>;

/**
 * A meter reading (section 3). value null or -1: not read. Status (section 4): not completed ->
 * Waiting; completed with null/-1 -> Not Read; completed with a value -> Complete.
 */
export const meterReadingSchema = z.object({
  id: z.string(),
  routeTaskId: z.string(),
  sequence: z.number().int(),
  meterInfo: meterInfoSchema,
  ozoneReference: z.string().nullable(),
  value: z.number().int().nullable(),
  recordedAt: z.number().nullable(),
  /** The recording member's cognitoIdentityId. */
  recordedBy: z.string().nullable(),
  recorderName: z.string().nullable(),
  completed: z.boolean(),
  notes: z.string().nullable(),
  cantReadCode: cantReadCodeSchema.nullable(),
  commentCode: commentCodeSchema.nullable(),
  exception: exceptionSchema.nullable(),
  serviceRequired: z.boolean(),
  edited: z.boolean(),
  /** Gateway path (under /api) of the photo, fetched with the ID token; null when none. Members only. */
  photoUrl: z.string().nullable(),
  /** The meter's last value recorded in an earlier task of this organisation (the registry), else the imported previous value. */
  lastRecordedReading: z.number().nullable(),
  importedPrevReading: importedPrevReadingSchema.nullable(),
  /** Special routes: why the meter is to be read. */
  reason: z.string().nullable(),
  position: positionSchema.nullable(),
});
export type MeterReading = z.infer<typeof meterReadingSchema>;

export const meterReadingListSchema = z.object({ task: routeTaskSchema, readings: z.array(meterReadingSchema) });
export type MeterReadingList = z.infer<typeof meterReadingListSchema>;
/** Edit and record answer: the reading and its task with recomputed counts. */
export const meterReadingAnswerSchema = z.object({ reading: meterReadingSchema, task: routeTaskSchema });
export type MeterReadingAnswer = z.infer<typeof meterReadingAnswerSchema>;

export const routeMetadataSchema = z.object({ routeName: z.string(), suburb: z.string().nullable(), type: routeTypeSchema.nullable() });
export type RouteMetadata = z.infer<typeof routeMetadataSchema>;

// ---------------------------------------------------------------- paths

export const orgPathSchema = z.object({ orgId: uuid });
export const routeTaskPathSchema = z.object({ orgId: uuid, taskId: uuid });
export const meterReadingPathSchema = z.object({ orgId: uuid, taskId: uuid, readingId: uuid });
export const routeMetadataPathSchema = z.object({ orgId: uuid, name: text(200).min(1) });
/** No call takes a query; a `region` (as the member calls carry) is accepted and ignored, anything else is dropped. */
export const routeQuerySchema = z.object({ region: text(64).optional() });

// ---------------------------------------------------------------- bodies

/** One row of a normal import (section 3 "Import payload, normal route"). */
export const importReadingSchema = z.object({
  sequence: z.number().int().min(0).max(2_147_483_647),
  ozoneNumber: text(100).min(1),
  /** Only when the file has a last read date (section 5). */
  importedPrevReading: importedPrevReadingSchema.nullable().optional(),
  serial: text(100).min(1),
  valuationRef: text(200),
  propertyAddress: text(500),
  ownerName: text(500),
  location: text(500),
  /** Extra fields a file may carry (the .asc layout). */
  additionalLocationInfo: text(500).optional(),
  latitude: latitude.nullable().optional(),
  longitude: longitude.nullable().optional(),
});
export type ImportReading = z.infer<typeof importReadingSchema>;

/** POST /organisations/{orgId}/routes: one call per import payload, all or nothing. */
export const routeImportSchema = z.object({
  routeName: text(200).min(1),
  isSpecial: z.literal(false).optional(),
  group: text(200).nullable().optional(),
  readings: z.array(importReadingSchema).min(1).max(MAX_IMPORT_READINGS),
  iterationNumber: text(100).nullable().optional(),
  /** Optional; when present it must be the path's organisation. */
  organisationId: uuid.optional(),
});
export type RouteImport = z.infer<typeof routeImportSchema>;

/** A meter of a special route (from an xlsx file). */
export const specialMeterSchema = z.object({
  ozoneReference: text(100).min(1),
  serial: text(100).min(1),
  meterLocation: text(500).min(1),
  reason: text(1000).min(1),
});
export type SpecialMeter = z.infer<typeof specialMeterSchema>;

/** A reading a special route is created from: its id, and a reason (default: its notes, else "Unknown"). */
export const specialFromReadingSchema = z.object({ id: uuid, reason: text(1000).optional() });

/**
 * POST /organisations/{orgId}/special-routes: from meters (the organisation's earlier imported
 * readings are the registry, matched on (ozoneReference, serial)) or from existing readings.
 */
export const specialRouteCreateSchema = z.union([
  z.object({ isSpecial: z.literal(true).optional(), group: text(200), meters: z.array(specialMeterSchema).min(1).max(MAX_IMPORT_READINGS), organisationId: uuid.optional() }).strict(),
  z.object({ isSpecial: z.literal(true).optional(), group: text(200), readings: z.array(specialFromReadingSchema).min(1).max(MAX_IMPORT_READINGS), organisationId: uuid.optional() }).strict(),
]);
export type SpecialRouteCreate = z.infer<typeof specialRouteCreateSchema>;

/** PATCH /organisations/{orgId}/routes/{taskId}: any of assignedTo (a member's cognitoIdentityId, null unassigns), exported, group. */
export const routeTaskPatchSchema = z
  .object({ assignedTo: uuid.nullable().optional(), exported: z.boolean().optional(), group: text(200).nullable().optional() })
  .strict()
  .refine((b) => b.assignedTo !== undefined || b.exported !== undefined || b.group !== undefined, 'Nothing to update');
export type RouteTaskPatch = z.infer<typeof routeTaskPatchSchema>;

/** POST /organisations/{orgId}/route-meta-data/{name}: suburb ("" clears it) and/or type. */
export const routeMetadataUpsertSchema = z
  .object({ suburb: text(200).nullable().optional(), type: routeTypeSchema.nullable().optional() })
  .strict()
  .refine((b) => b.suburb !== undefined || b.type !== undefined, 'Nothing to update');
export type RouteMetadataUpsert = z.infer<typeof routeMetadataUpsertSchema>;

/**
 * PATCH .../meter-readings/{readingId}: only the changed fields (section 7.3). value null or -1
 * clears the value (with a can't-read code). A can't-read code clears value and comment code.
 */
export const meterReadingPatchSchema = z
  .object({
    id: uuid.optional(),
    value: z.union([readingValue, z.literal(UNREAD_VALUE)]).nullable().optional(),
    notes: multilineText.max(2000).nullable().optional(),
    cantReadCode: cantReadCodeSchema.nullable().optional(),
    commentCode: commentCodeSchema.nullable().optional(),
    serviceRequired: z.boolean().optional(),
    meterInfo: z.object({ additionalLocationInfo: text(500) }).strict().optional(),
  })
  .strict();
export type MeterReadingPatch = z.infer<typeof meterReadingPatchSchema>;

/** A photo taken at the meter: base64 of a PNG or JPEG, at most MAX_PHOTO_BYTES decoded. */
export const recordPhotoSchema = z.object({
  contentType: z.enum(['image/png', 'image/jpeg']),
  data: z.string().max(Math.ceil((MAX_PHOTO_BYTES * 4) / 3) + 4).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});
export type RecordPhoto = z.infer<typeof recordPhotoSchema>;

/**
 * PUT .../meter-readings/{readingId}/record by the assigned user: a value, or a can't-read code
 * (then no value and no comment code), codes, notes, photo, time and position.
 */
export const meterReadingRecordSchema = z
  .object({
    value: readingValue.nullable().optional(),
    cantReadCode: cantReadCodeSchema.nullable().optional(),
    commentCode: commentCodeSchema.nullable().optional(),
    notes: multilineText.max(2000).nullable().optional(),
    serviceRequired: z.boolean().optional(),
    photo: recordPhotoSchema.nullable().optional(),
    recordedAt: time,
    position: positionSchema.nullable().optional(),
  })
  .strict()
  .refine((b) => (b.cantReadCode ? b.value === undefined || b.value === null : b.value !== undefined && b.value !== null), {
    message: 'Reading is required unless a can\u2019t-read code is set, and must be empty with one',
    path: ['value'],
  });
export type MeterReadingRecord = z.infer<typeof meterReadingRecordSchema>;

/**
 * The record call's optional `Idempotency-Key` header: a retry with the same key and the same
 * request answers the first result (header Idempotent-Replayed: true) and records nothing; the
 * same key with another request is 422 IDEMPOTENCY_KEY_REUSED. Keys are per caller.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const idempotencyKeySchema = z.string().min(8).max(128).regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only');

// ---------------------------------------------------------------- helpers both sides use

export type RouteProgress = 'Exported' | 'Complete' | 'Active' | 'Waiting';
/** Section 4's four progress states. */
export function routeProgress(t: Pick<RouteTask, 'exported' | 'completedAt' | 'startedAt'>): RouteProgress {
  if (t.exported) return 'Exported';
  if (t.completedAt !== null) return 'Complete';
  if (t.startedAt !== null) return 'Active';
  return 'Waiting';
}

/** Percent = completed / total x 100, rounded down when over 99, otherwise rounded up. */
export function progressPercent(completed: number, total: number): number {
  if (total <= 0) return 0;
  const p = (completed / total) * 100;
  return p > 99 ? Math.floor(p) : Math.ceil(p);
}

/** The previous reading a new value is compared with (the server's rule): the registry's last recorded value, else the imported one. */
export function previousReadingOf(r: Pick<MeterReading, 'lastRecordedReading' | 'importedPrevReading'>): { value: number; date: number | null } | null {
  const imported = r.importedPrevReading;
  if (r.lastRecordedReading !== null && r.lastRecordedReading >= 0)
    return { value: r.lastRecordedReading, date: imported && imported.value === r.lastRecordedReading ? imported.date : null };
  return imported ? { value: imported.value, date: imported.date } : null;
}

export type ReadingStatus = 'Waiting' | 'Not Read' | 'Complete';
/** Section 4's reading status. */
export function readingStatus(r: Pick<MeterReading, 'completed' | 'value'>): ReadingStatus {
  if (!r.completed) return 'Waiting';
  return r.value === null || r.value === UNREAD_VALUE ? 'Not Read' : 'Complete';
}

// ---------------------------------------------------------------- live

/** The topic a route task's changes are published on after commit (members may subscribe under orgs/{orgId}/#). */
export const routeTasksTopic = (orgId: string) => `orgs/${orgId}/routes`;
/**
 * Payload on orgs/{orgId}/routes: the task as GET .../routes lists it after an import, special
 * route, PATCH, record or edit; task null after a delete. readingId names the reading recorded or edited.
 */
export const liveRouteTaskMessageSchema = z.object({ taskId: z.string(), task: routeTaskSchema.nullable(), readingId: z.string().optional() });
export type LiveRouteTaskMessage = z.infer<typeof liveRouteTaskMessageSchema>;
