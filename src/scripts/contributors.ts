// The footer's contributors, from GET /api/contributors: each links to their profile; the column stays hidden while
// there are none.
import { apiCall } from '../lib/client/api';

/** Fills the footer's contributors column from the API, and shows it when the site lists any. */
export function startContributors(): void {
  const column = document.querySelector<HTMLElement>('[data-contributors]');
  const list = column?.querySelector('ul');
  if (!column || !list) return;
  apiCall('contributors').then(
    (people) => {
      list.replaceChildren(
        ...people.map((person) => {
          const link = document.createElement('a');
          link.href = `/user/${person.uuid}`;
          link.textContent = person.username;
          const item = document.createElement('li');
          item.append(link);
          return item;
        }),
      );
      column.hidden = people.length === 0;
    },
    () => {
      // Without the list the footer simply shows no contributors.
    },
  );
}
