import { lazy, Suspense } from "react";

// The announcements and the partner apps' data are their own chunk: they are never needed for the first paint.
const AnnouncementHost = lazy(() => import("./AnnouncementHost"));

/** The announcement modals (see AnnouncementHost), loaded after the first screen. */
export function Announcements() {
  return (
    <Suspense fallback={null}>
      <AnnouncementHost />
    </Suspense>
  );
}
