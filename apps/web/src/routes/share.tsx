import { ShareScreen } from "../features/share/ShareScreen";

/** Loaded on demand: the share screen is its own chunk, outside the first load of /. */
export default function ShareRoute() {
  return <ShareScreen />;
}
