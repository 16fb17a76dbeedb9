import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Box } from '@mantine/core';

/**
 * A box that scrolls sideways (a wide table) and shows it can: a shadow on each edge with more
 * beyond it, since overlay scrollbars (phones, macOS, some Chromium builds) show nothing until
 * the user scrolls. The shadows are drawn over the content and let clicks through.
 */
export function ScrollCue({ children, label }: { children: ReactNode; label?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
  }, []);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, [measure]);
  const edge = (side: 'left' | 'right') => (
    <Box
      aria-hidden
      data-testid={`scroll-cue-${side}`}
      pos="absolute"
      top={0}
      bottom={0}
      w={24}
      style={{ [side]: 0, pointerEvents: 'none', background: `linear-gradient(to ${side === 'left' ? 'right' : 'left'}, rgba(0, 0, 0, 0.14), transparent)` }}
    />
  );
  return (
    <Box pos="relative">
      {/* focusable so a keyboard can scroll it (WCAG 2.1.1); named by what it holds */}
      <Box ref={box} onScroll={measure} style={{ overflowX: 'auto' }} tabIndex={more.left || more.right ? 0 : undefined} role={more.left || more.right ? 'region' : undefined} aria-label={more.left || more.right ? label : undefined}>
        {children}
      </Box>
      {more.left && edge('left')}
      {more.right && edge('right')}
    </Box>
  );
}
