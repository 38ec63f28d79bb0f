export { useSendLocaleOnce } from "./use-send-locale-once";
