import { lazy } from "react";

// The referral card, its modal and the acceptance load for signed-in users only, outside the first load.
export const ClaimReferral = lazy(() => import("./ClaimReferral").then((module) => ({ default: module.ClaimReferral })));
