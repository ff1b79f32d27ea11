/** UserMenu: the signed-in user's name and a sign-out button. */
import { useAuth } from '../auth/auth-context';

export function UserMenu() {
  const { user, signOut } = useAuth();
  const profile = user?.profile;
  const name = profile?.name || profile?.preferred_username || profile?.email || 'Signed in';
  return (
    <div className="user-menu">
      <span className="user-name" title={profile?.email ?? undefined}>
        {name}
      </span>
      <button type="button" className="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}
