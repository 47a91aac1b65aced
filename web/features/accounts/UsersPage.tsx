/**
 * Users tab (admins): list, invite, edit, delete (SPEC §2, §7, §8). Only an Owner can grant Owner; the server
 * also keeps the last Owner, and its message is shown as given.
 */
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { api, type User } from '../../../common/api/index.ts';
import { ROLE_LABELS, type Role } from '../../../common/roles.ts';
import { checkEmail, formRule } from '../../../common/fieldRules.ts';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { EditIcon, TrashIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { useUserData } from '../../lib/queries.ts';
import { useAddUser, useDeleteUser, useEditUser, useUsers } from './api.ts';

const ROLE_CHOICES: { role: Role; label: string; hint: string }[] = [
  { role: 'viewer', label: 'View only', hint: 'Sees boards and their recent results.' },
  { role: 'evaluator', label: 'Evaluator', hint: 'Also runs evaluations and leaves feedback.' },
  { role: 'admin', label: 'Administrator', hint: 'Also builds cards and boards and manages users.' },
  { role: 'owner', label: 'Owner', hint: 'Also manages the subscription.' },
];

const flagsOf = (role: Role) => ({
  isViewOnly: role === 'viewer',
  isEvaluator: role === 'evaluator',
  isAdmin: role === 'admin',
  isOwner: role === 'owner',
});

function UserForm({
  user,
  canGrantOwner,
  onDone,
}: {
  user: User | null;
  canGrantOwner: boolean;
  onDone: () => void;
}) {
  const call = user ? api.editUser : api.addUser;
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddUser();
  const edit = useEditUser();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: user?.email ?? '', role: (user?.role ?? 'viewer') as Role },
    validate: { email: formRule(checkEmail) },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = { email: values.email.trim(), ...flagsOf(values.role) };
    try {
      if (user) await edit.mutateAsync({ id: user.id, ...body });
      else await add.mutateAsync(body);
      onDone();
    } catch (error) {
      setFailure(applyServerError(error, call, form.setFieldError));
    }
  });
  const ownerLocked = !canGrantOwner && (user?.role === 'owner' || form.values.role === 'owner');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Email" type="email" required data-autofocus {...form.getInputProps('email')} />
        <Radio.Group label="Role" {...form.getInputProps('role')}>
          <Stack gap={6} mt={6}>
            {ROLE_CHOICES.map((choice) => (
              <Radio
                key={choice.role}
                value={choice.role}
                label={choice.label}
                description={choice.hint}
                disabled={!canGrantOwner && (choice.role === 'owner' || user?.role === 'owner')}
              />
            ))}
          </Stack>
        </Radio.Group>
        {ownerLocked && (
          <Text size="sm" c="dimmed">
            Only an Owner can grant or remove the Owner role.
          </Text>
        )}
        {!user && (
          <Text size="sm" c="dimmed">
            We will email an invitation with a link to choose a password.
          </Text>
        )}
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending || edit.isPending}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function UsersPage() {
  const { data: me } = useUserData();
  const users = useUsers();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const remove = useDeleteUser();
  const isOwner = me?.isOwner ?? false;

  return (
    <Page
      title="Users"
      actions={
        <Button onClick={() => setEditing('new')} disabled={!users.data}>
          Add user
        </Button>
      }
    >
      {users.isPending && <Loading label="Loading users" />}
      {users.isError && <ErrorText message={messageOf(users.error, api.getUsers)} />}
      {users.data && (
        <Table.ScrollContainer minWidth={480}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.users.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    {user.email}
                    {user.email === me?.name && (
                      <Text span size="sm" c="dimmed">
                        {' '}
                        (you)
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{ROLE_LABELS[user.role]}</Table.Td>
                  <Table.Td>
                    {user.emailVerified ? (
                      <Badge color="teal.9" variant="filled">
                        Active
                      </Badge>
                    ) : (
                      <Badge color="gray.7" variant="filled">
                        Invited
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Edit">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Edit ${user.email}`}
                          onClick={() => setEditing(user)}
                        >
                          <EditIcon />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${user.email}`}
                          onClick={() => setDeleting(user)}
                        >
                          <TrashIcon />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add User' : 'Edit User'}
      >
        {editing !== null && (
          <UserForm
            key={editing === 'new' ? 'new' : editing.id}
            user={editing === 'new' ? null : editing}
            canGrantOwner={isOwner}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>

      <ConfirmDeleteModal
        opened={deleting !== null}
        name={deleting?.email ?? ''}
        call={api.deleteUser}
        onDelete={() => remove.mutateAsync({ id: deleting!.id })}
        onClose={() => setDeleting(null)}
      >
        They will be signed out and can no longer sign in. Their evaluations and feedback are kept.
      </ConfirmDeleteModal>
    </Page>
  );
}
