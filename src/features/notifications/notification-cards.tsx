import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { NotificationSensor, SensorNotification } from '../../contract/notification.schema';
import type { MeasurementUnit } from '../../domain/sensor-format';
import type { TimeDisplay } from '../../domain/time-format';
import { NotificationCard } from './notification-card';
import classes from './notifications.module.css';

/** A list longer than this is virtualised: only the rows of cards near the screen are in the page. */
export const VIRTUALISE_FROM = 100;
/** The next page is asked for when the end of the list is this close to the screen. */
const NEAR_END = '800px';
/** The notifications breakpoint (monitoring-client 9) and the cards' narrowest width (notifications.module.css). */
const BREAKPOINT = 800;
const CARD_MIN = 360;
const GAP = 16;
const ESTIMATED_ROW = 170;

interface NotificationCardsProps {
  notifications: SensorNotification[];
  sensors: Map<string, NotificationSensor>;
  sensorsUrl: string;
  unit: MeasurementUnit;
  timeDisplay: TimeDisplay;
  timeZone: string;
  hasMore: boolean;
  /** Called when the end of the list nears the screen (undefined while a page loads). */
  onNearEnd?: () => void;
}

/** The cards in the page's grid: all of them for a short list, the rows on screen for a long one. */
export function NotificationCards(props: NotificationCardsProps) {
  const { notifications, hasMore, onNearEnd } = props;
  const sentinel = useRef<HTMLDivElement>(null);
  // observed again after each page: a sentinel still in view after a short page asks for the next
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || !onNearEnd) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onNearEnd(), { rootMargin: NEAR_END });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, onNearEnd, notifications.length]);

  const card = (n: SensorNotification) => (
    <NotificationCard
      key={n.id}
      notification={n}
      sensor={props.sensors.get(n.sensorId)}
      sensorsUrl={props.sensorsUrl}
      unit={props.unit}
      timeDisplay={props.timeDisplay}
      timeZone={props.timeZone}
    />
  );
  return (
    <>
      {notifications.length > VIRTUALISE_FROM ? <VirtualRows notifications={notifications} card={card} /> : <div className={classes.grid}>{notifications.map(card)}</div>}
      <div ref={sentinel} aria-hidden />
    </>
  );
}

/** Cards per row, as the grid's CSS lays them out at this width. */
function columnsFor(width: number) {
  if (window.innerWidth < BREAKPOINT) return 1;
  return Math.max(1, Math.floor((width + GAP) / (CARD_MIN + GAP)));
}

function VirtualRows({ notifications, card }: { notifications: SensorNotification[]; card(n: SensorNotification): ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      setWidth(el.clientWidth);
      setOffset(el.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const columns = width > 0 ? columnsFor(width) : 1;
  const rows = Math.ceil(notifications.length / columns);
  const virtual = useWindowVirtualizer({ count: rows, estimateSize: () => ESTIMATED_ROW, overscan: 4, scrollMargin: offset });
  // a new column count re-lays every row
  useEffect(() => virtual.measure(), [columns, virtual]);

  return (
    <div ref={box} className={classes.virtual} style={{ height: virtual.getTotalSize() }}>
      {virtual.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtual.measureElement}
          className={classes.row}
          style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, transform: `translateY(${row.start - virtual.options.scrollMargin}px)` }}
        >
          {notifications.slice(row.index * columns, (row.index + 1) * columns).map(card)}
        </div>
      ))}
    </div>
  );
}
