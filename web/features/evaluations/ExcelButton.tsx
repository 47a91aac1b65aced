/** 'Download Excel' of a tab's current filter: the server streams the file; the browser saves it. */
import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import type { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { DownloadIcon } from '../../components/icons.tsx';
import { messageOf } from '../../lib/api.ts';
import { saveDownload } from '../../lib/download.ts';
import { downloadExcel, type SearchFilter } from './api.ts';
import { browserTimeZone } from '../../shared/timeZone.ts';

export function ExcelButton({
  call,
  filter,
  maxDateTime,
}: {
  call: typeof api.getExcel | typeof api.getFeedbackExcel;
  filter: SearchFilter;
  /** The newest row the list shows: the file holds the set the list shows. */
  maxDateTime: string | null;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const file = await downloadExcel(call, { ...filter, maxDateTime, timeZone: browserTimeZone() });
      saveDownload(file);
    } catch (error) {
      setFailure(messageOf(error, call));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="default" leftSection={<DownloadIcon size={16} />} loading={busy} onClick={download}>
        Download Excel
      </Button>
      <ErrorText message={failure} />
    </Stack>
  );
}
