// The script at the top of every page, before anything renders: it marks the page with what the stored user may see
// (`data-session`, `data-admin`) and sends a visitor without a stored user from a page that needs one (`data-auth` on
// the page) to the login page. One text on every page, so the pages' policy allows it by one hash.

/** The session script's text, exactly as the pages carry it. */
export const SESSION_SCRIPT = `(function () {
  var user = null;
  try {
    user = JSON.parse(localStorage.getItem('user') || 'null');
  } catch (e) {
    user = null;
  }
  var root = document.documentElement;
  var known = !!(user && user.uuid);
  root.dataset.session = known ? 'user' : 'visitor';
  if (known && user.group && user.group.admin) root.dataset.admin = '';
  if (root.hasAttribute('data-auth') && !known) {
    root.style.visibility = 'hidden';
    location.replace('/account/login?ref=' + encodeURIComponent(location.pathname + location.search));
  }
})();`;
