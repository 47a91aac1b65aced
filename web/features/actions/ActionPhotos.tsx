/**
 * Photos of how an action was put right (docs/decisions/0586): shown with the action; while it is open,
 * whoever may close it adds them (shrunk in the browser, uploaded with progress, retried with the same key)
 * and removes their own.
 */
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, type ActionPhoto } from '../../../common/api/index.ts';
import { PHOTOS_PER_RESULT_MAX } from '../../../common/evidence.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { callApi, messageOf, newIdempotencyKey } from '../../lib/api.ts';
import { shrinkPhoto } from '../../shared/photos/shrink.ts';
import { uploadPhoto } from '../../shared/photos/upload.ts';
import { actionKeys } from './api.ts';

const photoUrl = (photoID: number, size: 'thumb' | 'full') =>
  `${api.getActionPhoto.path}?photoID=${photoID}&size=${size}`;

interface Pending {
  key: string;
  blob: Blob;
  progress: number;
  error: string | null;
}

export function ActionPhotos({
  actionID,
  photos,
  canAdd,
}: {
  actionID: number;
  photos: ActionPhoto[];
  canAdd: boolean;
}) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: actionKeys.one(actionID) });

  const send = async (next: Pending) => {
    setPending({ ...next, progress: 0, error: null });
    try {
      await uploadPhoto<ActionPhoto>(`${api.addActionPhoto.path}?actionID=${actionID}`, next.blob, {
        idempotencyKey: next.key,
        failMsg: api.addActionPhoto.failMsg,
        onProgress: (progress) => setPending((p) => (p ? { ...p, progress } : p)),
      });
      setPending(null);
      await refresh();
    } catch (error) {
      setPending({ ...next, error: messageOf(error, api.addActionPhoto) });
    }
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setFailure(null);
    await send({ key: newIdempotencyKey(), blob: await shrinkPhoto(file), progress: 0, error: null });
  };

  const remove = async (photoID: number) => {
    setFailure(null);
    try {
      await callApi(api.deleteActionPhoto, { photoID });
      await refresh();
    } catch (error) {
      setFailure(messageOf(error, api.deleteActionPhoto));
    }
  };

  if (!canAdd && photos.length === 0) return null;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Photos
      </Text>
      {photos.length > 0 && (
        <Group gap="xs">
          {photos.map((photo, index) => (
            <Stack key={photo.id} gap={2} align="center">
              <a href={photoUrl(photo.id, 'full')} target="_blank" rel="noreferrer">
                <img
                  src={photoUrl(photo.id, 'thumb')}
                  alt={`Close-out photo ${index + 1}`}
                  width={96}
                  height={96}
                  style={{ objectFit: 'cover', borderRadius: 6, display: 'block' }}
                />
              </a>
              {canAdd && (
                <Button size="compact-xs" variant="default" onClick={() => void remove(photo.id)}>
                  Remove
                </Button>
              )}
            </Stack>
          ))}
        </Group>
      )}
      {pending && (
        <Stack gap={4}>
          <Progress value={pending.progress * 100} aria-label="Uploading the photo" />
          {pending.error && (
            <Group gap="xs">
              <ErrorText message={pending.error} />
              <Button size="xs" variant="default" onClick={() => void send(pending)}>
                Retry
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <ErrorText message={failure} />
      {canAdd && photos.length < PHOTOS_PER_RESULT_MAX && (
        <div>
          <input
            ref={input}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            aria-label="Add a close-out photo"
            onChange={(event) => {
              void choose(event.currentTarget.files?.[0]);
              event.currentTarget.value = '';
            }}
          />
          <Button
            size="xs"
            variant="default"
            loading={pending !== null && !pending.error}
            onClick={() => input.current?.click()}
          >
            Add photo
          </Button>
        </div>
      )}
    </Stack>
  );
}
