import type { ReactNode } from 'react';
import { Button, Collapse, Paper, SimpleGrid } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';

/** The filters of a table: always shown on wide screens, behind a 'Filters (n)' toggle on phones. */
export function FilterPanel({ mobile, active, children }: { mobile: boolean; active: number; children: ReactNode }) {
  const [open, { toggle }] = useDisclosure(false);
  const grid = (
    <SimpleGrid cols={{ base: 2, md: 4, xl: 7 }} spacing="sm" verticalSpacing="xs">
      {children}
    </SimpleGrid>
  );
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label="Filters">
      {mobile ? (
        <>
          <Button variant="subtle" size="compact-sm" leftSection={<IconFilter size={14} />} onClick={toggle} aria-expanded={open}>
            Filters{active ? ` (${active})` : ''}
          </Button>
          <Collapse expanded={open}>
            <div style={{ paddingTop: 8 }}>{grid}</div>
          </Collapse>
        </>
      ) : (
        grid
      )}
    </Paper>
  );
}
