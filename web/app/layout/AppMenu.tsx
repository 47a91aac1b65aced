/** The drop-down menu of SPEC §2, each item under its role condition once the user's data is known. */
import { Burger, Menu, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { roleOf, show } from '../../../common/roles.ts';
import { signOut } from '../../features/accounts/signOut.ts';
import { setEditMode, useEditMode } from '../../lib/editMode.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useLoggedIn } from '../../lib/session.ts';

export function AppMenu({ orgFromPath }: { orgFromPath: string | undefined }) {
  const [opened, setOpened] = useState(false);
  const loggedIn = useLoggedIn();
  const { data: user } = useUserData();
  const editing = useEditMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const role = user && user.isPaid ? roleOf(user) : null;
  const org = user?.orgName ?? orgFromPath;

  return (
    <Menu
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={240}
      shadow="md"
      withinPortal
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>
        <Burger opened={opened} aria-label="Menu" size="sm" />
      </Menu.Target>
      <Menu.Dropdown>
        {loggedIn && user && (
          <Menu.Item component={Link} to={paths.home(user.orgName)}>
            Home
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={org && loggedIn ? paths.docs(org) : '/#documentation'}>
          Documentation
        </Menu.Item>
        <Menu.Item component={Link} to={org && loggedIn ? paths.support(org) : '/#support'}>
          Support
        </Menu.Item>
        {role && show.analytics(role) && (
          <Menu.Item component={Link} to={paths.analytics(user!.orgName)}>
            Analytics
          </Menu.Item>
        )}
        {role && show.accountSettings(role) && (
          <Menu.Item component={Link} to={paths.admin(user!.orgName)}>
            Account Settings
          </Menu.Item>
        )}
        {role && show.accountSettings(role) && (
          <Menu.Item component={Link} to={paths.orgSettings(user!.orgName)}>
            Organisation Settings
          </Menu.Item>
        )}
        <Menu.Item onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}>
          {scheme === 'dark' ? 'Light Theme' : 'Dark Theme'}
        </Menu.Item>
        {role && show.editModeToggle(role) && (
          <Menu.CheckboxItem checked={editing} onChange={setEditMode}>
            Admin Mode
          </Menu.CheckboxItem>
        )}
        <Menu.Divider />
        {loggedIn ? (
          <Menu.Item
            color="red"
            onClick={async () => {
              void navigate(await signOut(queryClient, org));
            }}
          >
            Sign out
          </Menu.Item>
        ) : (
          <Menu.Item component={Link} to={paths.login(orgFromPath)}>
            Sign in
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
