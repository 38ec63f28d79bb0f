export { forgetVerification, storeWorldId4, useVerification, useVerify } from "./use-verification";
