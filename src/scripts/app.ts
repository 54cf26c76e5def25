// Runs on every page: refreshes the stored user, shows the previous page's flash message, and starts the menu, overlays
// and ad slots.
import { apiCall } from '../lib/client/api';
import { showFlash, takeFlash } from '../lib/client/flash';
import { $user, storeUser } from '../lib/client/session';
import { startAdSlots } from './ads';
import { startContributors } from './contributors';
import { startMenu } from './menu';
import { startOverlays } from './overlays';

const flash = takeFlash();
if (flash) showFlash(flash);

startMenu();
startOverlays();
startAdSlots();
startContributors();

if ($user.get()) {
  apiCall('currentUser').then(storeUser, () => {
    // 401 already logged the user out; other failures keep the stored user.
  });
}
