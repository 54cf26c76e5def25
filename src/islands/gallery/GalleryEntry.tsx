// /gallery/{hash} and /gallery/{uuid} are one path segment to a static host, so one shell serves both: this island
// reads the path and shows a texture's page or a player's gallery, with that route's title.
import { lazy, Suspense, useEffect, useState } from 'react';
import { findRoute, pageTitle } from '../../lib/routes';
import { site } from '../../lib/site';

const GalleryTexture = lazy(() => import('./GalleryTexture'));
const PlayerGallery = lazy(() => import('./PlayerGallery'));

/** The gallery entry island: a player's gallery for a uuid, else the texture page (which handles a bad hash). */
export default function GalleryEntry() {
  const [route] = useState(() => findRoute(location.pathname));
  useEffect(() => {
    if (route) document.title = pageTitle(route.title, site.name);
  }, [route]);
  return (
    <Suspense fallback={<div className="h-96 animate-pulse rounded-2xl bg-ink-900" aria-busy="true" />}>
      {route?.name === 'gallery-user' ? <PlayerGallery /> : <GalleryTexture />}
    </Suspense>
  );
}
