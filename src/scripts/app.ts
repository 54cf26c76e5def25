// Runs on every page: refreshes the stored user, and starts the menu, overlays and ad slots.
import { api } from '../lib/api';
import { loginUrlFor } from '../lib/routes';
import { $user, storeUser } from '../lib/session';
import type { User } from '../lib/types';
import { startAdSlots } from './ads';
import { startMenu } from './menu';
import { startOverlays } from './overlays';

startMenu();
startOverlays();
startAdSlots();

// An auth page whose user was logged out (a 401) sends the visitor to log in again.
$user.subscribe((user) => {
  if (!user && document.documentElement.hasAttribute('data-auth')) {
    location.replace(loginUrlFor(location.pathname + location.search));
  }
});

if ($user.get()) {
  api<User>('/api/user').then(storeUser, () => {
    // 401 already logged the user out; other failures keep the stored user.
  });
}
