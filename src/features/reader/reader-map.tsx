import { useEffect, useRef } from 'react';
import type { MeterReading, Position } from '../../contract/route.schema';
import { createBaseMap, maplibregl } from '../../shared/base-map';
import type { ReadingState } from './reader-state';

const COLOUR: Record<ReadingState, string> = { unread: '#0b5c7a', waiting: '#e8590c', sending: '#e8590c', sent: '#2f9e44', recorded: '#2f9e44', refused: '#c92a2a' };

export interface ReaderMapProps {
  style: string;
  readings: readonly MeterReading[];
  states: ReadonlyMap<string, ReadingState>;
  position: Position | null;
  nearestId: string | undefined;
  onPick: (readingId: string) => void;
}

/** The task's meters (unread blue, captured orange, done green, refused red), my position and the nearest unread meter ringed. Loaded lazily with maplibre. */
export function ReaderMap({ style, readings, states, position, nearestId, onPick }: ReaderMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<maplibregl.Map | null>(null);
  const markers = useRef<maplibregl.Marker[]>([]);
  const me = useRef<maplibregl.Marker | null>(null);

  useEffect(() => {
    const located = readings.filter((r) => r.meterInfo.latitude !== null && r.meterInfo.longitude !== null);
    const centre: [number, number] = located.length ? [located[0]!.meterInfo.longitude!, located[0]!.meterInfo.latitude!] : [174.78, -41.29];
    const m = createBaseMap(box.current!, style, { center: centre, zoom: 15 }, { cooperativeGestures: false });
    map.current = m;
    if (located.length > 1) {
      const b = new maplibregl.LngLatBounds();
      for (const r of located) b.extend([r.meterInfo.longitude!, r.meterInfo.latitude!]);
      m.fitBounds(b, { padding: 32, animate: false, maxZoom: 17 });
    }
    return () => m.remove();
  }, [style, readings]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    for (const mk of markers.current) mk.remove();
    markers.current = readings
      .filter((r) => r.meterInfo.latitude !== null && r.meterInfo.longitude !== null)
      .map((r) => {
        const el = document.createElement('button');
        el.type = 'button';
        el.setAttribute('aria-label', `Meter at ${r.meterInfo.propertyAddress}`);
        const near = r.id === nearestId;
        Object.assign(el.style, { width: near ? '22px' : '14px', height: near ? '22px' : '14px', borderRadius: '50%', border: near ? '4px solid #fab005' : '2px solid white', background: COLOUR[states.get(r.id) ?? 'unread'], padding: '0', cursor: 'pointer' });
        el.addEventListener('click', () => onPick(r.id));
        return new maplibregl.Marker({ element: el }).setLngLat([r.meterInfo.longitude!, r.meterInfo.latitude!]).addTo(m);
      });
  }, [readings, states, nearestId, onPick]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!position) {
      me.current?.remove();
      me.current = null;
      return;
    }
    if (!me.current) {
      const el = document.createElement('div');
      el.setAttribute('aria-label', 'My position');
      Object.assign(el.style, { width: '16px', height: '16px', borderRadius: '50%', background: '#1c7ed6', border: '3px solid white', boxShadow: '0 0 0 6px rgba(28,126,214,0.25)' });
      me.current = new maplibregl.Marker({ element: el }).setLngLat([position.longitude, position.latitude]).addTo(m);
    } else me.current.setLngLat([position.longitude, position.latitude]);
  }, [position]);

  return <div ref={box} style={{ height: 260, borderRadius: 8, overflow: 'hidden' }} data-testid="reader-map" />;
}
