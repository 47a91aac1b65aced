/**
 * An item's evidence while it is answered (issue 12): the photo button (the camera on a phone), the
 * photos with their upload progress, Retry and Remove, the note, and what a failed item still needs.
 */
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useId, useRef } from 'react';
import type { CardItem } from '../../../../common/api/index.ts';
import { NOTE_MAX, PHOTOS_PER_RESULT_MAX } from '../../../../common/evidence.ts';
import type { LocalPhoto } from './usePhotoUploads.ts';
import classes from './Evidence.module.css';
import { GrowingTextarea } from '../../../components/GrowingTextarea.tsx';

export function ItemEvidence({
  item,
  photos,
  note,
  missing,
  canAddPhotos,
  onNote,
  onAdd,
  onRetry,
  onRemove,
}: {
  item: CardItem;
  photos: LocalPhoto[];
  note: string;
  /** What the item still lacks to be submitted (shown once the item failed), or null. */
  missing: string | null;
  canAddPhotos: boolean;
  onNote: (note: string) => void;
  onAdd: (file: File) => void;
  onRetry: (key: string) => void;
  onRemove: (key: string) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const full = photos.length >= PHOTOS_PER_RESULT_MAX;
  const needs = [item.photoOnFail && 'a photo', item.noteOnFail && 'a note'].filter(Boolean).join(' and ');
  return (
    <Stack gap="xs" data-testid="evidence">
      {item.type === 'pass_fail' && needs && (
        <Text size="xs" fw={600} c={missing ? 'var(--mantine-color-error)' : 'dimmed'} id={`${id}-needs`}>
          {missing ?? `Needs ${needs} when it fails.`}
        </Text>
      )}
      {photos.length > 0 && (
        <ul className={classes.photos} aria-label="Photos">
          {photos.map((photo, index) => (
            <li key={photo.key} className={classes.photo} data-status={photo.status}>
              <img src={photo.preview} alt={`Photo ${index + 1}`} className={classes.thumb} />
              {(photo.status === 'preparing' || photo.status === 'uploading') && (
                <Progress
                  value={Math.round(photo.progress * 100)}
                  size="sm"
                  aria-label={`Uploading photo ${index + 1}`}
                  animated
                />
              )}
              {photo.error && (
                <Text size="xs" c="var(--mantine-color-error)" role="alert">
                  {photo.error}
                </Text>
              )}
              <Group gap={4} wrap="nowrap">
                {photo.status === 'failed' && (
                  <Button size="compact-xs" onClick={() => onRetry(photo.key)}>
                    Retry
                  </Button>
                )}
                {photo.status !== 'preparing' && photo.status !== 'uploading' && (
                  <Button
                    size="compact-xs"
                    variant="default"
                    loading={photo.status === 'removing'}
                    onClick={() => onRemove(photo.key)}
                    aria-label={`Remove photo ${index + 1}`}
                  >
                    Remove
                  </Button>
                )}
              </Group>
            </li>
          ))}
        </ul>
      )}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        {canAddPhotos && (
          <>
            <input
              ref={input}
              type="file"
              accept="image/*"
              capture="environment"
              hidden
              aria-label="Add a photo"
              data-testid="photo-input"
              onChange={(event) => {
                const files = [...(event.currentTarget.files ?? [])];
                event.currentTarget.value = '';
                for (const file of files.slice(0, PHOTOS_PER_RESULT_MAX - photos.length)) onAdd(file);
              }}
            />
            <Button
              variant="default"
              onClick={() => input.current?.click()}
              disabled={full}
              title={full ? `At most ${PHOTOS_PER_RESULT_MAX} photos` : undefined}
            >
              Add photo
            </Button>
          </>
        )}
        <GrowingTextarea
          className={classes.note}
          label="Note"
          placeholder="Optional note"
          minRows={1}
          maxRows={4}
          maxLength={NOTE_MAX}
          value={note}
          onChange={(event) => onNote(event.currentTarget.value)}
          aria-describedby={needs ? `${id}-needs` : undefined}
        />
      </Group>
    </Stack>
  );
}
