/**
 * "Download report (PDF)" of a completed evaluation (issue 13, docs/decisions/0712): A4 or US Letter, made
 * by the server and saved by the browser. Shown wherever an evaluation is opened: its modal (board view
 * and Evaluations tab) and the action raised from it.
 */
import { Button, Group, NativeSelect, Stack } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../../common/api/index.ts';
import type { PaperSize } from '../../../common/signOff.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { DownloadIcon } from '../../components/icons.tsx';
import { callApi, messageOf } from '../../lib/api.ts';
import { saveDownload } from '../../lib/download.ts';

export function ReportButton({
  evalID,
  label = 'Download report (PDF)',
}: {
  evalID: number;
  label?: string;
}) {
  const [paper, setPaper] = useState<PaperSize>('a4');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      saveDownload(await callApi(api.getEvaluationReport, { evalID, paper }));
    } catch (error) {
      setFailure(messageOf(error, api.getEvaluationReport));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="wrap">
        <Button variant="default" leftSection={<DownloadIcon size={16} />} loading={busy} onClick={download}>
          {label}
        </Button>
        <NativeSelect
          size="sm"
          aria-label="Paper size"
          value={paper}
          onChange={(event) => setPaper(event.currentTarget.value as PaperSize)}
          data={[
            { value: 'a4', label: 'A4' },
            { value: 'letter', label: 'US Letter' },
          ]}
        />
      </Group>
      <ErrorText message={failure} />
    </Stack>
  );
}
