export { forgetVerification, usePendingEnrolment, usePendingEnrolmentSync, useVerification, useVerify } from "./use-verification";
export { forgetPending, keepPending, pendingUsable, settlePending, storeSession } from "./pending-enrolment";
