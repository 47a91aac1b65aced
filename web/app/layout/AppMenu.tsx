/** The drop-down menu of SPEC §2, each item under its role condition once the user's data is known. */
import { Burger, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { roleOf, show } from '../../../common/roles.ts';
import { signOut } from '../../features/accounts/signOut.ts';
import { setEditMode, useEditMode } from '../../lib/editMode.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useLoggedIn } from '../../lib/session.ts';
import { Menu, MenuCheckboxItem, MenuDivider, MenuItem } from '../../components/Menu.tsx';

export function AppMenu({ orgFromPath }: { orgFromPath: string | undefined }) {
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
      width={240}
      trigger={(props, opened) => <Burger {...props} opened={opened} aria-label="Menu" size="sm" />}
    >
      {loggedIn && user && <MenuItem to={paths.home(user.orgName)}>Home</MenuItem>}
      <MenuItem to={org && loggedIn ? paths.docs(org) : '/#documentation'}>Documentation</MenuItem>
      <MenuItem to={org && loggedIn ? paths.support(org) : '/#support'}>Support</MenuItem>
      {role && show.analytics(role) && <MenuItem to={paths.analytics(user!.orgName)}>Analytics</MenuItem>}
      {role && show.accountSettings(role) && (
        <MenuItem to={paths.admin(user!.orgName)}>Account Settings</MenuItem>
      )}
      {role && show.accountSettings(role) && (
        <MenuItem to={paths.orgSettings(user!.orgName)}>Organisation Settings</MenuItem>
      )}
      <MenuItem onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}>
        {scheme === 'dark' ? 'Light Theme' : 'Dark Theme'}
      </MenuItem>
      {role && show.editModeToggle(role) && (
        <MenuCheckboxItem checked={editing} onChange={setEditMode}>
          Admin Mode
        </MenuCheckboxItem>
      )}
      <MenuDivider />
      {loggedIn ? (
        <MenuItem
          danger
          onClick={async () => {
            void navigate(await signOut(queryClient, org));
          }}
        >
          Sign out
        </MenuItem>
      ) : (
        <MenuItem to={paths.login(orgFromPath)}>Sign in</MenuItem>
      )}
    </Menu>
  );
}
