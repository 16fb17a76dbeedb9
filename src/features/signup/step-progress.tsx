import { Box, SimpleGrid, Text } from '@mantine/core';

/** Three labelled bars: compact enough for the sign-up card at any width (Stepper's labels wrap there). */
export function StepProgress({ titles, active }: { titles: readonly string[]; active: number }) {
  return (
    <SimpleGrid cols={titles.length} spacing={8} aria-label={`Step ${Math.min(active + 1, titles.length)} of ${titles.length}`}>
      {titles.map((title, i) => (
        <Box key={title} aria-current={i === active ? 'step' : undefined}>
          <Box h={4} mb={6} style={{ borderRadius: 4, background: i <= active ? 'var(--mantine-color-tide-6)' : 'var(--mantine-color-gray-3)' }} />
          <Text size="xs" fw={i === active ? 700 : 500} c={i <= active ? 'tide.8' : 'dimmed'} lh={1.3}>
            {i + 1}. {title}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
