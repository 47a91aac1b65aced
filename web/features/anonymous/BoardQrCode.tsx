/**
 * The QR code of a board's anonymous evaluation address (SPEC §2, §9: margin 2). The address comes from
 * the server (built from APP_URL) with the current key; on any error the code and address are blank,
 * never a stale or wrong one.
 */
import { Anchor, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { api } from '../../../common/api/index.ts';
import { QR_MARGIN } from '../../../common/constants.ts';
import { messageOf } from '../../lib/api.ts';
import { useAnonymousKey } from './api.ts';

// The QR encoder is loaded when a code is first drawn, into a box already its size (docs/decisions/0741).
const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));

export function BoardQrCode({
  boardID,
  boardName,
  size = 160,
  showLink = true,
}: {
  boardID: number;
  boardName: string;
  size?: number;
  showLink?: boolean;
}) {
  const key = useAnonymousKey(boardID);
  const url = key.isError ? '' : (key.data?.url ?? '');
  return (
    <Stack gap={4} align="center" data-testid="board-qr">
      <div style={{ width: size, height: size, background: '#fff', borderRadius: 4 }}>
        {url ? (
          <Suspense fallback={null}>
            <QRCodeSVG
              value={url}
              marginSize={QR_MARGIN}
              size={size}
              level="M"
              role="img"
              aria-label={`QR code for anonymous evaluation of ${boardName}`}
              data-url={url}
            />
          </Suspense>
        ) : null}
      </div>
      {key.isError && (
        <Text size="xs" c="var(--mantine-color-error)" role="alert">
          {messageOf(key.error, api.getAnonymousEvaluationKey)}
        </Text>
      )}
      {showLink && url && (
        <Anchor href={url} size="xs" target="_blank" rel="noreferrer" style={{ wordBreak: 'break-all' }}>
          Open the anonymous evaluation page
        </Anchor>
      )}
    </Stack>
  );
}
