/** The poll the journeys vote in, created with the API's operator command before the API starts. */
export const E2E_POLL = {
  question: { en: "Which screen do you open first?", ja: "最初に開く画面は？", th: "คุณเปิดหน้าจอไหนก่อน" },
  options: [{ en: "Claim" }, { en: "Share" }, { en: "Stats" }],
};
