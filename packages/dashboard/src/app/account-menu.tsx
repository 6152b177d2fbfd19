import { useQueryClient } from '@tanstack/react-query';
import { ChevronDown, CircleUser, LogOut, UserRound } from 'lucide-react';
import { Button, Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover } from 'react-aria-components';
import { useLocation } from 'wouter';
import { accountKeys } from '../api/account.queries.js';
import { api } from '../api/client.js';
import '../components/components.css';

/**
 * The signed-in account's menu in the header (React Aria: arrow keys move, Escape closes, focus returns to the
 * button): who is signed in, the account's pages, and signing out (which ends the session, forgets every cached
 * answer and shows the sign-in page).
 */
export function AccountMenu({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const signOut = async () => {
    await api.auth.logout().catch(() => undefined);
    queryClient.clear();
    queryClient.setQueryData(accountKeys.me(), null);
    navigate('/login?signed_out=1');
  };
  return (
    <MenuTrigger>
      {/* Named by what it shows (the email, hidden on a phone) and what it is, so the visible text is in the name. */}
      <Button className="account-button">
        <CircleUser aria-hidden="true" size={20} />
        <span className="account-email">{email}</span>
        <span className="visually-hidden">Account menu</span>
        <ChevronDown aria-hidden="true" size={16} />
      </Button>
      <Popover className="menu-popover" placement="bottom end">
        <Menu className="menu" aria-label="Account">
          <MenuSection>
            <Header className="menu-header">Signed in as {email}</Header>
            <MenuItem
              className="menu-item"
              id="account"
              textValue="Account"
              onAction={() => navigate('/account')}
            >
              <UserRound aria-hidden="true" size={16} />
              Account
            </MenuItem>
            <MenuItem
              className="menu-item"
              id="sign-out"
              textValue="Sign out"
              onAction={() => void signOut()}
            >
              <LogOut aria-hidden="true" size={16} />
              Sign out
            </MenuItem>
          </MenuSection>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
