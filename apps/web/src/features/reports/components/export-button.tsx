import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useExport, type StartExport } from '../use-export';

export type ExportButtonProps = StartExport & { label?: string };

/** A report's CSV export (spec §7 `…/download`): progress while written, then the file opens. */
export function ExportButton({ label = 'Export to CSV', ...exportOptions }: ExportButtonProps) {
  const { start, running } = useExport();
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={running}
      onClick={() => void start(exportOptions)}
    >
      {label}
    </Button>
  );
}
