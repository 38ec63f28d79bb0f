export * from "./generated/contracts.js";
export * from "./world-id.js";
export * from "./referral-voucher.js";
