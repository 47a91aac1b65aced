/**
 * The QR code of a board's anonymous evaluation address (SPEC §2, §9: margin 2). The address and its code
 * come from the server (the address built from APP_URL, the code drawn there: docs/decisions/0761) with
 * the current key; on any error the code and address are blank, never a stale or wrong one.
 */
import { Anchor, Stack, Text } from '@mantine/core';
import { api } from '../../../common/api/index.ts';
import { messageOf } from '../../lib/api.ts';
import { useAnonymousKey } from './api.ts';

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
  // An answer kept on the device from before the server drew codes has none: drawn once the next one comes.
  const qr = key.isError ? undefined : key.data?.qr;
  return (
    <Stack gap={4} align="center" data-testid="board-qr">
      <div style={{ width: size, height: size, background: '#fff', borderRadius: 4 }}>
        {url && qr ? (
          <svg
            width={size}
            height={size}
            viewBox={`0 0 ${qr.size} ${qr.size}`}
            shapeRendering="crispEdges"
            role="img"
            aria-label={`QR code for anonymous evaluation of ${boardName}`}
            data-url={url}
          >
            <path fill="#FFFFFF" d={`M0,0 h${qr.size}v${qr.size}H0z`} />
            <path fill="#000000" d={qr.path} />
          </svg>
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
