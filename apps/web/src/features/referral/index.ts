import { lazy } from "react";

// The claim screen imports this index in the first load: what it exports loads on demand, each in its own chunk.

// The referral card, its modal and the acceptance load for signed-in users only, outside the first load.
export const ClaimReferral = lazy(() => import("./ClaimReferral").then((module) => ({ default: module.ClaimReferral })));

const loadShareScreen = () => import("./ShareScreen");

/** The share screen (src/routes/share.tsx), with its invites and rewards. */
export const ShareScreen = lazy(() => loadShareScreen().then((module) => ({ default: module.ShareScreen })));

/** Starts loading the share screen: its route does, beside its strings, so the two load together. */
export const preloadShareScreen = (): Promise<void> => loadShareScreen().then(() => undefined);
