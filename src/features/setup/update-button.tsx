import { Button } from '@mantine/core';
import { updateLabel } from '../../../machines/sensor-save.machine';

/** A setup section's submit button (sensor-setup 2): 'Updating' and disabled while its save runs. */
export function UpdateButton({ saving, disabled = false }: { saving: boolean; disabled?: boolean }) {
  return (
    <Button type="submit" disabled={saving || disabled}>
      {updateLabel(saving)}
    </Button>
  );
}
