export * from "./generated/contracts.js";
export * from "./world-id.js";
export * from "./referral-voucher.js";
export * from "./referral-message.js";
export * from "./api-client.js";
export * from "./dev-accounts.js";
export * from "./languages.js";
export * from "./chain-clock.js";
