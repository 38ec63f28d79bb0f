import { lazy } from "react";
import { Navigate, type RouteObject } from "react-router";
import { Layout } from "./features/layout/Layout";
import { ClaimRoute } from "./routes/claim";

const ShareRoute = lazy(() => import("./routes/share"));
// Every screen but the claim screen is its own chunk, loaded when first visited.
const StatsRoute = lazy(() => import("./routes/stats"));
const AppsRoute = lazy(() => import("./routes/apps"));
const PollsRoute = lazy(() => import("./routes/polls"));
const AboutRoute = lazy(() => import("./routes/about"));
const TermsRoute = lazy(() => import("./routes/terms"));
const DebugRoute = lazy(() => import("./routes/debug"));

/** Every screen nested in one layout; /share, /terms and /debug load on demand; anything else goes to / (replacing). */
export const routes: RouteObject[] = [
  {
    path: "/",
    element: <Layout />,
    children: [
      { index: true, element: <ClaimRoute /> },
      { path: "stats", element: <StatsRoute /> },
      { path: "apps", element: <AppsRoute /> },
      { path: "polls", element: <PollsRoute /> },
      { path: "share", element: <ShareRoute /> },
      { path: "about", element: <AboutRoute /> },
      { path: "terms", element: <TermsRoute /> },
      { path: "debug", element: <DebugRoute /> },
      { path: "*", element: <Navigate to="/" replace /> },
    ],
  },
];
