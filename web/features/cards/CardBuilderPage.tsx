/**
 * The card builder (SPEC §2): home/cards/new names a new card; home/cards/new/{cardID} and
 * home/cards/edit/{cardID} build it: rename, items (add, edit with rich text, reorder by drag or keyboard,
 * N/A allowed, delete), and the boards it is on. Each change is saved as it is made.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
  Typography,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  api,
  CARD_ITEM_TYPE_LABELS,
  PICKER_CARD_ITEM_TYPES,
  type Card,
  type CardItem,
  type CardItemType,
} from '../../../common/api/index.ts';
import { MAX_ITEMS_PER_CARD } from '../../../common/constants.ts';
import { checkItemName, messages, nameKey } from '../../../common/validation.ts';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  EditIcon,
  GripIcon,
  PlusIcon,
  TrashIcon,
} from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { RichTextField } from '../../components/RichTextField.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { paths } from '../../lib/paths.ts';
import { boardAndCardKeys, keys, useBoards, useCard, useCards } from '../boards/api.ts';
import classes from './CardBuilder.module.css';

const EMPTY_CONTENT = 'Write the item before saving it.';

function useNameRule(ownId: number | null) {
  const cards = useCards();
  return (value: string) => {
    const problem = checkItemName(value.trim());
    if (problem) return problem;
    const taken = (cards.data?.cards ?? []).some(
      (c) => c.id !== ownId && nameKey(c.name) === nameKey(value.trim()),
    );
    return taken ? messages.nameExists : null;
  };
}

/** home/cards/new: the card's name first; the builder continues at home/cards/new/{cardID}. */
function NewCard({ org }: { org: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const add = useCallMutation(api.addCard, { invalidates: boardAndCardKeys });
  const rule = useNameRule(null);
  const form = useForm({ mode: 'controlled', initialValues: { name: '' }, validate: { name: rule } });
  const submit = form.onSubmit(async ({ name }) => {
    setFailure(null);
    try {
      const { card } = await add.mutateAsync({ name: name.trim() });
      navigate(`/q/${encodeURIComponent(org)}/home/cards/new/${card.id}`, { replace: true });
    } catch (error) {
      setFailure(applyServerError(error, api.addCard, form.setFieldError));
    }
  });
  return (
    <Page title="New Card" size="sm">
      <Paper withBorder p="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Card name"
              description="For example: Line 1 start-up checks"
              required
              data-autofocus
              {...form.getInputProps('name')}
            />
            <ErrorText message={failure} />
            <Group justify="flex-end">
              <Button component={Link} to={paths.cards(org)} variant="default">
                Cancel
              </Button>
              <Button type="submit" loading={add.isPending}>
                Create card
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Page>
  );
}

function RenameForm({ card }: { card: Card }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const edit = useCallMutation(api.editCard, { invalidates: boardAndCardKeys });
  const rule = useNameRule(card.id);
  const form = useForm({ mode: 'controlled', initialValues: { name: card.name }, validate: { name: rule } });
  const submit = form.onSubmit(async ({ name }) => {
    setFailure(null);
    setSaved(false);
    // Renaming a card to its own name changes nothing.
    if (name.trim() === card.name) return;
    try {
      await edit.mutateAsync({ oldName: card.name, newName: name.trim() });
      setSaved(true);
    } catch (error) {
      setFailure(applyServerError(error, api.editCard, form.setFieldError, { newName: 'name' }));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Card name"
          required
          style={{ flex: '1 1 260px' }}
          {...form.getInputProps('name')}
          onFocus={() => setSaved(false)}
        />
        <Button
          type="submit"
          mt={25}
          variant="default"
          loading={edit.isPending}
          disabled={form.values.name.trim() === card.name}
        >
          Rename
        </Button>
      </Group>
      {saved && (
        <Text size="sm" c="var(--mantine-color-anchor)" role="status" mt={4}>
          Renamed.
        </Text>
      )}
      <ErrorText message={failure} />
    </form>
  );
}

function ItemEditor({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  failure,
}: {
  initial: { type: CardItemType; content: string; na: boolean };
  submitLabel: string;
  busy: boolean;
  onSubmit: (value: { type: CardItemType; content: string; na: boolean }) => void;
  onCancel?: () => void;
  failure: string | null;
}) {
  const [type, setType] = useState<CardItemType>(initial.type);
  const [content, setContent] = useState(initial.content);
  const [na, setNa] = useState(initial.na);
  const [empty, setEmpty] = useState(false);
  const offered = PICKER_CARD_ITEM_TYPES.includes(initial.type)
    ? PICKER_CARD_ITEM_TYPES
    : [initial.type, ...PICKER_CARD_ITEM_TYPES];
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Item type"
        value={type}
        onChange={(value) => setType(value as CardItemType)}
        data={offered.map((t) => ({ value: t, label: CARD_ITEM_TYPE_LABELS[t] }))}
        w="fit-content"
      />
      <RichTextField
        label={type === 'pass_fail' ? 'What is checked' : 'Instruction'}
        value={content}
        onChange={(html) => {
          setContent(html);
          setEmpty(false);
        }}
        error={empty ? EMPTY_CONTENT : null}
      />
      {type === 'pass_fail' && (
        <Switch
          label="Allow N/A"
          description="Evaluators may mark this check as not applicable."
          checked={na}
          onChange={(e) => setNa(e.currentTarget.checked)}
        />
      )}
      <ErrorText message={failure} />
      <Group justify="flex-end">
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button
          loading={busy}
          onClick={() => {
            if (!content.trim()) {
              setEmpty(true);
              return;
            }
            onSubmit({ type, content, na: type === 'pass_fail' ? na : false });
          }}
        >
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

function ItemRow({
  item,
  index,
  count,
  onMove,
  onDragStart,
  onDrop,
  dragging,
}: {
  item: CardItem;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onDragStart: () => void;
  onDrop: () => void;
  dragging: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const edit = useCallMutation(api.editCardItem, { invalidates: [keys.card(item.cardID), keys.cards] });
  const remove = useCallMutation(api.deleteCardItem, { invalidates: [keys.card(item.cardID), keys.cards] });
  const label = `item ${index + 1}`;

  const save = async (value: { type: CardItemType; content: string; na: boolean }) => {
    setFailure(null);
    try {
      await edit.mutateAsync({ id: item.id, cardID: item.cardID, order: item.order, ...value });
      setEditing(false);
    } catch (error) {
      setFailure(messageOf(error, api.editCardItem));
    }
  };

  return (
    <Paper
      withBorder
      p="sm"
      className={classes.item}
      data-dragging={dragging || undefined}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        onDrop();
      }}
      data-testid="card-item"
    >
      {editing ? (
        <ItemEditor
          initial={item}
          submitLabel="Save"
          busy={edit.isPending}
          onSubmit={save}
          onCancel={() => setEditing(false)}
          failure={failure}
        />
      ) : (
        <Group align="flex-start" wrap="nowrap" gap="sm">
          <div
            className={classes.handle}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', String(item.id));
              onDragStart();
            }}
            title="Drag to reorder"
            aria-hidden="true"
          >
            <GripIcon />
          </div>
          <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs">
              <Text size="sm" fw={700}>
                {index + 1}.
              </Text>
              <Badge variant={item.type === 'pass_fail' ? 'filled' : 'default'}>
                {CARD_ITEM_TYPE_LABELS[item.type]}
              </Badge>
            </Group>
            <Typography className={classes.content}>
              <div dangerouslySetInnerHTML={{ __html: item.content }} />
            </Typography>
            {item.type === 'pass_fail' && (
              <Switch
                size="sm"
                label="Allow N/A"
                checked={item.na}
                disabled={edit.isPending}
                onChange={(event) =>
                  void save({ type: item.type, content: item.content, na: event.currentTarget.checked })
                }
              />
            )}
            <ErrorText message={failure} />
          </Stack>
          <Group gap={2} wrap="nowrap">
            <Tooltip label="Move up">
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${label} up`}
                disabled={index === 0}
                onClick={() => onMove(index, index - 1)}
              >
                <ArrowUpIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down">
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${label} down`}
                disabled={index === count - 1}
                onClick={() => onMove(index, index + 1)}
              >
                <ArrowDownIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" aria-label={`Edit ${label}`} onClick={() => setEditing(true)}>
                <EditIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${label}`}
                onClick={() => setDeleting(true)}
              >
                <TrashIcon />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      )}
      <ConfirmDeleteModal
        opened={deleting}
        name={label}
        call={api.deleteCardItem}
        onDelete={() => remove.mutateAsync({ id: item.id })}
        onClose={() => setDeleting(false)}
      >
        Evaluations already made keep their answer to this item.
      </ConfirmDeleteModal>
    </Paper>
  );
}

function Items({ card }: { card: Card }) {
  const queryClient = useQueryClient();
  const items = card.cardItems.filter((i) => !i.isDeleted).sort((a, b) => a.order - b.order);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [addFailure, setAddFailure] = useState<string | null>(null);
  const [addKey, setAddKey] = useState(0);
  const replace = useCallMutation(api.replaceCard, { invalidates: [keys.card(card.id), keys.cards] });
  const add = useCallMutation(api.addCardItem, { invalidates: [keys.card(card.id), keys.cards] });

  const move = async (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const reordered = [...items];
    const [moved] = reordered.splice(from, 1);
    reordered.splice(to, 0, moved!);
    const cardItems = reordered.map((item, order) => ({
      id: item.id,
      type: item.type,
      content: item.content,
      na: item.na,
      order,
    }));
    setFailure(null);
    // Show the new order at once; the whole card is saved in one transaction.
    queryClient.setQueryData(keys.card(card.id), {
      card: { ...card, cardItems: cardItems.map((i) => ({ ...i, cardID: card.id, isDeleted: false })) },
    });
    try {
      await replace.mutateAsync({ card: { id: card.id, name: card.name, cardItems } });
    } catch (error) {
      setFailure(messageOf(error, api.replaceCard));
      await queryClient.invalidateQueries({ queryKey: keys.card(card.id) });
    }
  };

  const addItem = async (value: { type: CardItemType; content: string; na: boolean }) => {
    setAddFailure(null);
    try {
      const order = items.length ? Math.max(...items.map((i) => i.order)) + 1 : 0;
      await add.mutateAsync({ cardID: card.id, order, ...value });
      setAddKey((k) => k + 1);
      setAdding(false);
    } catch (error) {
      setAddFailure(messageOf(error, api.addCardItem));
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Items
        </Title>
        <Text size="sm" c="dimmed">
          {items.length}/{MAX_ITEMS_PER_CARD}
        </Text>
      </Group>
      {items.length === 0 && !adding && (
        <Text c="dimmed">
          This card has no items yet. Add instructions and the checks an evaluator passes or fails.
        </Text>
      )}
      <ErrorText message={failure} />
      <Stack gap="xs" aria-label="Card items" role="list">
        {items.map((item, index) => (
          <div role="listitem" key={item.id}>
            <ItemRow
              item={item}
              index={index}
              count={items.length}
              onMove={move}
              dragging={dragFrom === index}
              onDragStart={() => setDragFrom(index)}
              onDrop={() => {
                if (dragFrom !== null) void move(dragFrom, index);
                setDragFrom(null);
              }}
            />
          </div>
        ))}
      </Stack>
      {adding ? (
        <Paper withBorder p="sm">
          <ItemEditor
            key={addKey}
            initial={{ type: 'pass_fail', content: '', na: false }}
            submitLabel="Add item"
            busy={add.isPending}
            onSubmit={addItem}
            onCancel={() => setAdding(false)}
            failure={addFailure}
          />
        </Paper>
      ) : (
        <Button
          variant="default"
          leftSection={<PlusIcon size={16} />}
          onClick={() => setAdding(true)}
          disabled={items.length >= MAX_ITEMS_PER_CARD}
          w="fit-content"
        >
          Add item
        </Button>
      )}
    </Stack>
  );
}

function CardBoards({ card }: { card: Card }) {
  const boards = useBoards();
  const [failure, setFailure] = useState<string | null>(null);
  const sync = useCallMutation(api.syncCardBoards, { invalidates: boardAndCardKeys });
  const all = boards.data?.boards ?? [];
  const current = all.filter((b) => b.cardIDs.includes(card.id)).map((b) => String(b.id));
  return (
    <Stack gap={6}>
      <MultiSelect
        label="Boards"
        description="The boards this card is on."
        placeholder={current.length ? undefined : 'Choose boards'}
        data={all.map((b) => ({ value: String(b.id), label: b.name }))}
        value={current}
        searchable
        nothingFoundMessage="No boards match"
        disabled={sync.isPending || !boards.data}
        onChange={async (values) => {
          setFailure(null);
          try {
            await sync.mutateAsync({ cardID: card.id, boardIDs: values.map(Number) });
          } catch (error) {
            setFailure(messageOf(error, api.syncCardBoards));
          }
        }}
      />
      <ErrorText message={failure} />
    </Stack>
  );
}

export function CardBuilderPage() {
  const { org = '', cardID } = useParams();
  const id = cardID && /^\d+$/.test(cardID) ? Number(cardID) : null;
  const card = useCard(id);
  if (cardID === undefined) return <NewCard org={org} />;
  if (id === null)
    return (
      <Page title="Card not found">
        <Alert color="red">The card was not found.</Alert>
      </Page>
    );

  return (
    <Page
      title={card.data ? card.data.card.name : 'Card Builder'}
      size="md"
      actions={
        <Button component={Link} to={paths.cards(org)} variant="default">
          Done
        </Button>
      }
    >
      {card.isPending && <Loading label="Loading the card" />}
      {card.isError && <ErrorText message={messageOf(card.error, api.getCard)} />}
      {card.data && (
        <>
          <Paper withBorder p="md">
            <Stack gap="md">
              <RenameForm key={card.data.card.name} card={card.data.card} />
              <CardBoards card={card.data.card} />
            </Stack>
          </Paper>
          <Items card={card.data.card} />
        </>
      )}
    </Page>
  );
}
