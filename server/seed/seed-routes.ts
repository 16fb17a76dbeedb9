import { randomUUID } from 'node:crypto';
import { unit } from '../../src/domain/signals';
import type { AppContext } from '../context';
import type { Queryable } from '../db/db';
import { meterException } from '../routes/exceptions';
import { photo } from '../simulator/meter-photo';
import { storeFile } from '../storage';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

interface DemoRoute {
  name: string;
  group: string;
  suburb: string;
  type: 'commercial' | 'urban' | 'rural';
  centre: [number, number];
  streets: string[];
  readings: number;
  /** How far the reader got: readings completed, and whether the task is finished or exported. */
  done: number;
  state: 'waiting' | 'active' | 'complete' | 'exported';
  assigned: boolean;
  startedDaysAgo?: number;
  special?: boolean;
}

// Harbour City Council's routes: one per progress state of organisation-and-routes 4, and a special route
const ROUTES: DemoRoute[] = [
  { name: 'KEL-01', group: 'North', suburb: 'Kelburn', type: 'urban', centre: [-41.2845, 174.7676], streets: ['Upland Road', 'Glenmore Street', 'Kelburn Parade'], readings: 24, done: 24, state: 'exported', assigned: true, startedDaysAgo: 21 },
  { name: 'TEA-02', group: 'CBD', suburb: 'Te Aro', type: 'commercial', centre: [-41.2952, 174.7747], streets: ['Cuba Street', 'Aro Street', 'Tory Street'], readings: 21, done: 21, state: 'complete', assigned: true, startedDaysAgo: 2 },
  { name: 'MAK-03', group: 'West', suburb: 'Makara', type: 'rural', centre: [-41.2216, 174.7089], streets: ['Makara Road', 'South Makara Road'], readings: 30, done: 12, state: 'active', assigned: true, startedDaysAgo: 0.15 },
  { name: 'KAR-04', group: 'West', suburb: 'Karori', type: 'urban', centre: [-41.2847, 174.7378], streets: ['Karori Road', 'Donald Street', 'Campbell Street'], readings: 36, done: 0, state: 'waiting', assigned: true },
  { name: 'MIR-05', group: 'East', suburb: 'Miramar', type: 'urban', centre: [-41.3155, 174.8141], streets: ['Miramar Avenue', 'Darlington Road', 'Park Road'], readings: 15, done: 0, state: 'waiting', assigned: false },
  { name: 'SP', group: 'Specials', suburb: 'Newtown', type: 'urban', centre: [-41.3122, 174.7797], streets: ['Riddiford Street', 'Constable Street'], readings: 10, done: 4, state: 'active', assigned: true, startedDaysAgo: 0.05, special: true },
];

const OWNERS = ['J & K Whaanga', 'Te Aro Holdings Ltd', 'M Patel', 'S O\u2019Connor', 'L Nguyen', 'R & T Smith', 'H Tane', 'Kiwi Property Trust', 'A Fletcher', 'P Ruawai'];
const LOCATIONS = ['Front boundary left', 'Front boundary right', 'Under driveway grate', 'Berm by letterbox', 'Rear of garage', 'Side path'];
const CANT_READ = ['Buried', "Can't Find", 'Car Over', 'Damaged', 'Dog', 'Flooded', 'Leaking', 'No Meter'];
const COMMENTS = ['Broken Lid', 'Box Cut Away', 'No Seal', 'Leaking', 'Meter Damaged', 'Data Incorrect'];

/**
 * Route metadata, route tasks with increasing task numbers, and readings in every state; with a
 * context, the completed readings get the photos the reader took (the same drawing as the simulated reader's).
 */
export async function insertRoutes(q: Queryable, orgId: string, readerId: string, anchor: number, ctx?: Pick<AppContext, 'config'>): Promise<number> {
  let count = 0;
  for (const [ti, r] of ROUTES.entries()) {
    const routeName = r.special ? `SP${Math.floor((anchor - 3 * HOUR) / 1000)}` : r.name;
    if (!r.special) await q.query(`INSERT INTO route_metadata (org_id, route_name, suburb, type) VALUES ($1, $2, $3, $4)`, [orgId, routeName, r.suburb, r.type]);
    const started = r.startedDaysAgo !== undefined ? anchor - r.startedDaysAgo * DAY : null;
    const finished = r.state === 'complete' || r.state === 'exported';
    const spent = finished ? (r.readings * 7 + 23) * MIN : null;
    const taskId = randomUUID();
    await q.query(
      `INSERT INTO route_tasks (id, org_id, task_number, route_name, group_name, is_special, assigned_to, iteration_number, started_at, completed_at, exported, est_time_spent, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [taskId, orgId, 1001 + ti, routeName, r.group, r.special ?? false, r.assigned ? readerId : null, r.special ? null : '2611', started, finished ? started! + spent! : null, r.state === 'exported', spent, anchor - (30 - ti) * DAY],
    );
    for (let i = 0; i < r.readings; i++) await insertReading(q, taskId, r, ti, i, started, readerId, anchor, ctx && { ctx, orgId });
    count += r.readings;
  }
  return count;
}

async function insertReading(
  q: Queryable,
  taskId: string,
  r: DemoRoute,
  ti: number,
  i: number,
  started: number | null,
  readerId: string,
  anchor: number,
  store?: { ctx: Pick<AppContext, 'config'>; orgId: string },
) {
  const u = (salt: number) => unit(4242 + ti, i, salt);
  const pick = <T,>(list: T[], salt: number) => list[Math.floor(u(salt) * list.length)];
  const prev = 1000 + Math.floor(u(1) * 90000);
  const usual = 20 + Math.floor(u(2) * 60);
  const completed = i < r.done;
  const cantRead = completed && u(3) < 0.12 ? pick(CANT_READ, 4) : null;
  const roll = u(5);
  const consumption = roll < 0.06 ? 0 : roll < 0.1 ? -Math.ceil(u(6) * 15) : roll < 0.16 ? usual * 4 + 400 + Math.floor(u(7) * 200) : usual + Math.floor((u(8) - 0.5) * 10);
  const value = !completed ? null : cantRead ? (u(9) < 0.5 ? -1 : null) : prev + consumption;
  const comment = completed && !cantRead && u(10) < 0.15 ? pick(COMMENTS, 11) : null;
  const serviceRequired = comment === 'Leaking' || comment === 'Meter Damaged' || cantRead === 'Damaged';
  const prevDate = anchor - (95 + Math.floor(u(25) * 10)) * DAY;
  const recordedAt = completed ? started! + (i + 1) * 7 * MIN : null;
  // the same rule as the record call (server/routes/exceptions.ts), so an edit never changes an untouched exception
  const exception = !completed ? null : meterException({ value: value === -1 ? null : value, cantReadCode: cantRead, serviceRequired, recordedAt: recordedAt!, previous: prev, previousAt: prevDate });
  const id = randomUUID();
  let photoName: string | null = null;
  if (store && completed) {
    photoName = `reading-${id}-seed.png`;
    await storeFile(store.ctx, store.orgId, photoName, Buffer.from(photo(Math.floor(u(26) * 1e9), value === -1 ? null : value).data, 'base64'));
  }
  const number = 2 + Math.floor(u(12) * 180);
  const meterInfo = {
    serial: `${pick(['19M', '21E', '17K'], 13)}${String(Math.floor(u(14) * 1e6)).padStart(6, '0')}`,
    location: pick(LOCATIONS, 15),
    propertyAddress: `${number} ${pick(r.streets, 16)}, ${r.suburb}`,
    ownerName: pick(OWNERS, 17),
    valuationRef: `${17000 + Math.floor(u(18) * 900)}/${Math.floor(u(19) * 900)}.00`,
    additionalLocationInfo: u(20) < 0.3 ? 'Beware of dog' : '',
    latitude: r.centre[0] + (u(21) - 0.5) * 0.01,
    longitude: r.centre[1] + (u(22) - 0.5) * 0.014,
  };
  await q.query(
    `INSERT INTO meter_readings (id, route_task_id, sequence, meter_info, ozone_reference, value, recorded_at, recorded_by, completed, notes, cant_read_code,
                                 comment_code, exception, service_required, edited, last_recorded_reading, imported_prev_reading, reason, photo_url, position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
    [
      id,
      taskId,
      (i + 1) * 10,
      JSON.stringify(meterInfo),
      `OZ${String(4100000 + ti * 1000 + i)}`,
      value,
      recordedAt,
      completed ? readerId : null,
      completed,
      cantRead === 'Dog' ? 'Dog loose on property' : null,
      cantRead,
      comment,
      exception,
      serviceRequired,
      completed && r.state !== 'active' && u(24) < 0.1,
      prev,
      JSON.stringify({ value: prev, date: prevDate }),
      r.special ? pick(['Customer reports leak', 'Final read: change of ownership', 'Check read requested'], 23) : null,
      photoName,
      completed ? JSON.stringify({ latitude: meterInfo.latitude + (u(27) - 0.5) * 0.0002, longitude: meterInfo.longitude + (u(28) - 0.5) * 0.0002, accuracy: 5 }) : null,
    ],
  );
}
