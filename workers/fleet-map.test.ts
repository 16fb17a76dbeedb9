import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS } from '../src/contract/sensor-summary.schema';
import { drawBox } from '../src/shared/sensor-layers';
import { Fleet, FleetWorker } from './fleet';
import { FleetMapIndex, RANKED, type Box, type FleetMapItems, type MapPoint } from './fleet-map';

// 2,000 sensors over New Zealand, including the Chatham Islands east of the antimeridian
function fleet(): MapPoint[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: 2000 }, (_, i) => ({
    serial: `T${i}`,
    latitude: i % 10 === 0 ? -44 + rnd() * 0.3 : -46 + rnd() * 11,
    longitude: i % 10 === 0 ? -176.8 + rnd() * 0.5 : 167 + rnd() * 11,
    status: i % 7 === 0 ? 'ALERT' : 'OK',
  }));
}
const inBox = (b: Box, [lng, lat]: [number, number]) => {
  const l = lng < b.west ? lng + 360 : lng > b.east ? lng - 360 : lng;
  return l >= b.west && l <= b.east && lat >= b.south && lat <= b.north;
};
/** The columns as one object per drawn circle. */
const rows = (it: FleetMapItems) =>
  Array.from({ length: it.length }, (_, k) => ({ position: [it.position[2 * k]!, it.position[2 * k + 1]!] as [number, number], count: it.count[k]!, status: RANKED[it.rank[k]!], serial: it.serial[k]!, clusterId: it.clusterId[k]! }));
const key = (d: ReturnType<typeof rows>[number]) => `${d.serial}/${d.count}/${d.position.join()}`;

describe("the map's clustering in the data worker (issue 32)", () => {
  const points = fleet();
  const index = FleetMapIndex.build(points);

  it('answers exactly the world’s items of a zoom inside the box, at street and regional zooms', () => {
    for (const [zoom, view] of [
      [12, { west: 174.7, south: -41.35, east: 174.9, north: -41.2 }],
      [8, { west: 172, south: -44, east: 175, north: -42 }],
    ] as const) {
      const box = drawBox(view);
      const got = rows(index.items(zoom, box));
      const want = rows(index.items(zoom)).filter((d) => inBox(box, d.position));
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(index.items(zoom).length);
      expect(new Set(got.map(key))).toEqual(new Set(want.map(key)));
    }
  });

  it('crosses the antimeridian: a view east of New Zealand still gets the Chatham Islands', () => {
    const got = rows(index.items(10, drawBox({ west: 176, south: -46, east: 181, north: -42 }))); // the map's unwrapped bounds
    expect(got.some((d) => d.position[0] < -176)).toBe(true);
    expect(got.some((d) => d.position[0] > 176)).toBe(true);
  });

  it('holds every sensor once, counted in clusters, at each zoom; a cluster has its worst member’s colour', () => {
    for (const zoom of [0, 3, 6, 9, 12, 17]) {
      const items = rows(index.items(zoom));
      expect(items.reduce((n, d) => n + d.count, 0)).toBe(points.length);
    }
    const country = rows(index.items(3, drawBox({ west: -200, south: -80, east: 200, north: 80 })));
    expect(country.some((d) => d.count > 1)).toBe(true);
    expect(country.filter((d) => d.count > 1).every((d) => d.status === 'ALERT')).toBe(true);
    // at the deepest zoom every sensor stands alone, in its own status and place
    const alone = rows(index.items(17));
    expect(alone).toHaveLength(points.length);
    const t14 = alone.find((d) => d.serial === 'T14')!;
    expect(t14).toMatchObject({ count: 1, clusterId: -1, status: 'ALERT', position: [points[14]!.longitude, points[14]!.latitude] });
  });

  it('a live status change reaches the sensor and its clusters at every zoom, both ways, without a rebuild', () => {
    const few: MapPoint[] = [
      { serial: 'A1', latitude: -41.3, longitude: 174.77, status: 'OK' },
      { serial: 'A2', latitude: -41.301, longitude: 174.771, status: 'OK' },
      { serial: 'A3', latitude: -41.302, longitude: 174.772, status: 'DISABLED' },
      { serial: 'B1', latitude: -36.85, longitude: 174.76, status: 'WARNING' },
    ];
    const ix = FleetMapIndex.build(few);
    const generation = ix.generation;
    const cluster = () => rows(ix.items(8)).find((d) => d.count === 3)!;
    expect(cluster().status).toBe('OK');
    expect(ix.setStatus('A3', 'ALERT')).toBe(true);
    expect(cluster().status).toBe('ALERT');
    expect(rows(ix.items(17)).find((d) => d.serial === 'A3')!.status).toBe('ALERT');
    expect(ix.setStatus('A3', 'OK')).toBe(true);
    expect(cluster().status).toBe('OK');
    expect(rows(ix.items(8)).find((d) => d.serial === 'B1')!.status).toBe('WARNING');
    expect(ix.setStatus('NOT-MAPPED', 'ALERT')).toBe(false);
    expect(ix.generation).toBe(generation);
    // a click on the cluster zooms to where it splits; a cluster id of a clustering since replaced is not followed
    expect(ix.expansionZoom(generation, cluster().clusterId)).toBeGreaterThan(8);
    expect(ix.expansionZoom(generation - 1, cluster().clusterId)).toBeNull();
  });

  it('keeps the clustering for a refreshed list whose sensors have not moved, and builds it afresh when one has', () => {
    const ix = FleetMapIndex.build(points);
    const again = ix.rebuilt(points.map((p) => ({ ...p, status: 'OK' as const })).reverse());
    expect(again.generation).toBe(ix.generation);
    expect(rows(again.items(3)).every((d) => d.status === 'OK')).toBe(true);
    const moved = ix.rebuilt(points.map((p, i) => (i === 5 ? { ...p, latitude: p.latitude + 1 } : p)));
    expect(moved.generation).not.toBe(ix.generation);
    expect(rows(moved.items(17)).find((d) => d.serial === 'T5')!.position[1]).toBe(points[5]!.latitude + 1);
  });
});

const row = (name: string, serial: string, lat: number | null, lng: number | null, alert = false) => [`id-${serial}`, serial, name, lat, lng, true, 1, alert, false, 80, 1, 1000, 3000, 0, 2000, null];
const body = (rs: unknown[]) => ({ fields: [...SUMMARY_FIELDS], rows: rs });
/** n sensors on a line south-east from near Wellington, their serials `prefix` and a number. */
const line = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => row(`S${String(i).padStart(3, '0')}`, `${prefix}${String(i).padStart(6, '0')}`, -41 - i * 0.01, 174 + i * 0.01));
/** A worker whose list's first page (100 rows) is answered at once and whose whole list waits for `release`. */
function heldBack(many: unknown[]) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const w = new FleetWorker({
    fetch: async (input) => {
      if (String(input).endsWith('&limit=100')) return new Response(JSON.stringify({ ...body(many.slice(0, 100)), total: many.length }));
      await held;
      return new Response(JSON.stringify(body(many)));
    },
  });
  return { w, release };
}

describe("the fleet's map calls (issue 32)", () => {
  // three sensors within metres of each other (one cluster until street zoom), one far away, one with no position
  const list = () =>
    body([
      row('Reservoir', 'AA000001', -41.3, 174.77),
      row('Pump', 'AA000002', -41.3001, 174.7701),
      row('Tank', 'AA000003', -41.3002, 174.7702),
      row('Bore', 'AA000004', -36.85, 174.76),
      row('Spare', 'AA000005', null, null),
    ]);

  it('a live uplink changes a point’s colour and its cluster’s; the fleet reports the mapped status change', () => {
    const f = new Fleet();
    f.load(list());
    expect(f.mapIndex().overview).toMatchObject({ count: 4, view: { kind: 'bounds' } });
    const clusterAt8 = () => rows(f.mapIndex().items(8)).find((d) => d.count === 3)!;
    expect(clusterAt8().status).toBe('OK');
    const r = f.applyLive([{ sensorId: 'id-AA000002', latestData: { alertAsserted: true } }], 0, 0);
    expect(r.statusChanged).toBe(true);
    expect(clusterAt8().status).toBe('ALERT');
    expect(rows(f.mapIndex().items(17)).find((d) => d.serial === 'AA000002')!.status).toBe('ALERT');
    f.applyLive([{ sensorId: 'id-AA000002', latestData: { alertAsserted: false } }], 0, 0);
    expect(clusterAt8().status).toBe('OK');
    // the sensor without a position is never drawn, and its uplinks change no colour
    expect(f.applyLive([{ sensorId: 'id-AA000005', latestData: { alertAsserted: true } }], 0, 0).statusChanged).toBe(false);
  });

  it('finds the selected sensor (its summary and position) inside a cluster and outside the view', async () => {
    const w = new FleetWorker({ fetch: async () => new Response(JSON.stringify(list())) });
    await w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' });
    expect(await w.fleetMapOverview()).toMatchObject({ count: 4 });
    // at zoom 8 the Pump is inside a cluster: no circle of its own
    const items = rows(await w.fleetMapItems(8, { west: 170, south: -45, east: 178, north: -35 }));
    expect(items.some((d) => d.serial === 'AA000002')).toBe(false);
    expect(items.find((d) => d.count === 3)).toBeDefined();
    // a view of Auckland only: the Pump is off screen
    const auckland = rows(await w.fleetMapItems(14, { west: 174.7, south: -36.9, east: 174.8, north: -36.8 }));
    expect(auckland.map((d) => d.serial)).toEqual(['AA000004']);
    // the card and the centring read the sensor by serial all the same
    const found = await w.fleetFind('AA000002');
    expect(found?.sensor).toMatchObject({ serial: 'AA000002', name: 'Pump', latitude: -41.3001, longitude: 174.7701 });
    expect((await w.fleetFind('AA000005'))?.sensor).toMatchObject({ name: 'Spare', latitude: null });
  });

  it('while the whole list loads, the map is answered the first page\'s sensors at once, saying how many of how many are held', async () => {
    const { w, release } = heldBack(line(150, 'AE'));
    expect(await w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).toMatchObject({ complete: false });
    const part = await w.fleetMapHeld();
    expect(part).toMatchObject({ count: 100, loading: { held: 100, total: 150 }, view: { kind: 'bounds', south: -41.99, north: -41 } });
    // the items are the first page's: all 100 sensors at street zoom, none of the rest
    const world = { west: -180, south: -85, east: 180, north: 85 };
    const partItems = rows(await w.fleetMapItems(17, world));
    expect(partItems).toHaveLength(100);
    expect(partItems.some((d) => d.serial === 'AE000120')).toBe(false);
    // the whole overview still waits for the whole list
    const whole = w.fleetMapOverview();
    release();
    expect(await whole).toMatchObject({ count: 150 });
    expect((await whole).loading).toBeUndefined();
    expect(await w.fleetMapHeld()).toEqual(await whole);
    expect(rows(await w.fleetMapItems(17, world))).toHaveLength(150);
  });

  it('while the whole list streams in, the map is answered the rows read so far, clustered again each time they have doubled', async () => {
    const many = line(400, 'AF');
    // the server's streamed text: the header, then rows in batches, then the cursor
    const pieces = [`{"fields":${JSON.stringify(SUMMARY_FIELDS)},"rows":[`, JSON.stringify(many.slice(0, 250)).slice(1, -1), ',' + JSON.stringify(many.slice(250)).slice(1, -1), '],"cursor":7}'];
    const sent: (() => void)[] = [];
    const encoder = new TextEncoder();
    const w = new FleetWorker({
      fetch: async (input) => {
        if (String(input).endsWith('&limit=100')) return new Response(JSON.stringify({ ...body(many.slice(0, 100)), total: 400 }));
        let k = 0;
        // each piece goes when the test says (sent[k]())
        return new Response(
          new ReadableStream<Uint8Array>({
            pull: (c) =>
              new Promise<void>((r) =>
                sent.push(() => {
                  if (k < pieces.length) c.enqueue(encoder.encode(pieces[k++]!));
                  else c.close();
                  r();
                }),
              ),
          }),
        );
      },
    });
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const send = async () => {
      while (sent.length === 0) await tick();
      sent.shift()!();
      await tick();
    };
    expect(await w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).toMatchObject({ complete: false });
    await send(); // the header
    expect(await w.fleetMapHeld()).toMatchObject({ count: 100, loading: { held: 100, total: 400 } });
    await send(); // 250 rows
    expect(await w.fleetMapHeld()).toMatchObject({ count: 250, loading: { held: 250, total: 400 } });
    const world = { west: -180, south: -85, east: 180, north: 85 };
    expect(rows(await w.fleetMapItems(17, world))).toHaveLength(250);
    await send(); // the other 150
    // 400 read is under twice the 250 clustered: the map keeps those and says how many are read
    expect(await w.fleetMapHeld()).toMatchObject({ count: 250, loading: { held: 400, total: 400 } });
    await send(); // the cursor
    await send(); // the end
    const whole = await w.fleetComplete();
    expect(whole).toMatchObject({ total: 400, complete: true, invalid: [] });
    expect(await w.fleetMapHeld()).toMatchObject({ count: 400 });
    expect((await w.fleetMapHeld()).loading).toBeUndefined();
    expect(rows(await w.fleetMapItems(17, world))).toHaveLength(400);
    // the list is the whole one, in order, with the stream's cursor for the next refresh
    expect((await w.fleetRows(399, 400)).rows[0]!.sensor.serial).toBe('AF000399');
  });

  it('answers the map only once the whole list is in, and a refresh keeps the clustering when no sensor moved', async () => {
    const { w, release } = heldBack(line(150, 'AD'));
    expect(await w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1' })).toMatchObject({ complete: false });
    const overview = w.fleetMapOverview();
    release();
    expect(await overview).toMatchObject({ count: 150 });
    const before = (await w.fleetMapItems(0, { west: -180, south: -85, east: 180, north: 85 })).generation;
    await w.fleetLoad({ apiBase: 'http://x/api', token: 't', orgId: 'o1', firstPage: false });
    expect((await w.fleetMapItems(0, { west: -180, south: -85, east: 180, north: 85 })).generation).toBe(before);
  });
});
