import { Group, Text } from '@mantine/core';

/** The Tidewatch mark: a wave in a rounded square (the same drawing as the favicon). */
export function BrandMark({ size = 32, light = false }: { size?: number; light?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill={light ? 'rgba(255,255,255,0.16)' : '#0b5c7a'} stroke={light ? 'rgba(255,255,255,0.35)' : 'none'} />
      <path d="M4 20c4-4 8 4 12 0s8 4 12 0v8H4z" fill="#7fd3f0" />
      <path d="M4 15c4-4 8 4 12 0s8 4 12 0" stroke="#fff" strokeWidth="2.5" fill="none" />
    </svg>
  );
}

export function Brand({ size = 30, light = false }: { size?: number; light?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <BrandMark size={size} light={light} />
      <Text fw={700} fz={size * 0.62} c={light ? 'white' : 'var(--tw-brand-text)'} style={{ letterSpacing: '-0.02em' }}>
        Tidewatch
      </Text>
    </Group>
  );
}
