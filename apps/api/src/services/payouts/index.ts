/** The payouts feature as other features see it: signed vouchers and the worker that pays them. */
export * from "./vouchers.js";
export * from "./payout-worker.js";
