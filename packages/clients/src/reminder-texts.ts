import type { WorldNotificationLanguage } from "./world-notifications.js";

/** A reminder's text in one language: World App shows the title in at most 30 characters, the message in 200. */
export interface ReminderText {
  title: string;
  message: string;
}

/**
 * The reminders' texts, in every language World delivers notifications in: a request must carry each of them, or a
 * user whose World App is set to a missing one receives nothing. World App puts the user's name in place of
 * `${username}` (in the message: beside it a title may have only 16 characters). Written once here for the API that
 * sends them and the journeys and benches that check what arrived; `test/reminder-texts.test.ts` holds them to
 * World's rules. The product's own eight UI languages are another list (`languages.ts`).
 */
export const CLAIM_REMINDER_TEXTS: Record<WorldNotificationLanguage, ReminderText> = {
  en: { title: "Your ORO is ready", message: "${username}, your daily ORO claim is open. Claim now to keep your streak going!" },
  en_GB: { title: "Your ORO is ready", message: "${username}, your daily ORO is ready to collect. Claim it now to keep your streak going!" },
  ca: { title: "El teu ORO està a punt", message: "${username}, ja pots reclamar el teu ORO diari. Reclama'l ara i mantén la teva ratxa!" },
  zh_CN: { title: "今天的 ORO 可以领取了", message: "${username}，今天的 ORO 可以领取了。现在就领取，保持你的连续记录！" },
  fr: { title: "Votre ORO est prêt", message: "${username}, votre ORO du jour est disponible. Récupérez-le maintenant pour garder votre série !" },
  de: { title: "Dein ORO ist bereit", message: "${username}, dein tägliches ORO ist da. Hol es dir jetzt ab, damit deine Serie weiterläuft!" },
  hi: { title: "आपका ORO तैयार है", message: "${username}, आपका आज का ORO तैयार है। अपनी स्ट्रीक जारी रखने के लिए अभी क्लेम करें!" },
  ja: { title: "ORO を受け取れます", message: "${username} さん、今日の ORO を受け取れるようになりました。今すぐ受け取って連続記録を伸ばしましょう！" },
  ko: { title: "ORO를 받을 수 있어요", message: "${username}님, 오늘의 ORO를 받을 수 있어요. 지금 받고 연속 기록을 이어가세요!" },
  pl: { title: "Twoje ORO czeka", message: "${username}, Twoje dzienne ORO jest gotowe do odebrania. Odbierz je teraz, aby utrzymać swoją serię!" },
  pt: { title: "Seu ORO está pronto", message: "${username}, seu resgate diário de ORO está liberado. Resgate agora e mantenha sua sequência!" },
  es: { title: "Tu ORO está listo", message: "${username}, ya puedes reclamar tu ORO diario. ¡Reclámalo ahora y mantén tu racha!" },
  es_419: { title: "Tu ORO ya está listo", message: "${username}, ya puedes reclamar tu ORO diario. ¡Reclámalo ahora y no pierdas tu racha!" },
  ms: { title: "ORO anda sudah sedia", message: "${username}, ORO harian anda sudah boleh dituntut. Tuntut sekarang untuk mengekalkan rentetan anda!" },
  th: { title: "ORO ของคุณพร้อมแล้ว", message: "${username} คุณรับ ORO ประจำวันได้แล้ว รับเลยตอนนี้เพื่อรักษาสถิติต่อเนื่องของคุณ!" },
  id: { title: "ORO kamu sudah siap", message: "${username}, klaim ORO harianmu sudah dibuka. Klaim sekarang agar streak-mu terus berlanjut!" },
  it: { title: "Il tuo ORO è pronto", message: "${username}, il tuo ORO giornaliero è disponibile. Riscattalo ora per non interrompere la tua serie!" },
  zh_TW: { title: "今天的 ORO 可以領取了", message: "${username}，今天的 ORO 可以領取了。現在就領取，延續你的連續紀錄！" },
  nl: { title: "Je ORO staat klaar", message: "${username}, je dagelijkse ORO staat klaar. Claim nu om je reeks voort te zetten!" },
};

/** The streak-at-risk nudge: the human's streak lapses within hours and they have not claimed. */
export const STREAK_AT_RISK_TEXTS: Record<WorldNotificationLanguage, ReminderText> = {
  en: { title: "Your streak ends soon", message: "${username}, claim your ORO today to keep your streak alive." },
  en_GB: { title: "Your streak ends soon", message: "${username}, claim your ORO today so that your streak carries on." },
  ca: { title: "La teva ratxa s'acaba aviat", message: "${username}, reclama el teu ORO avui per no perdre la ratxa." },
  zh_CN: { title: "连续记录即将中断", message: "${username}，今天领取你的 ORO，别让连续记录中断。" },
  fr: { title: "Votre série touche à sa fin", message: "${username}, récupérez votre ORO aujourd'hui pour ne pas perdre votre série." },
  de: { title: "Deine Serie endet bald", message: "${username}, hol dir heute dein ORO, damit deine Serie nicht abreißt." },
  hi: { title: "आपकी स्ट्रीक टूटने वाली है", message: "${username}, अपनी स्ट्रीक बनाए रखने के लिए आज ही अपना ORO क्लेम करें।" },
  ja: { title: "連続記録がまもなく途切れます", message: "${username} さん、今日 ORO を受け取って連続記録を守りましょう。" },
  ko: { title: "연속 기록이 곧 끊겨요", message: "${username}님, 오늘 ORO를 받고 연속 기록을 이어가세요." },
  pl: { title: "Twoja seria zaraz się skończy", message: "${username}, odbierz dziś swoje ORO, żeby nie stracić serii." },
  pt: { title: "Sua sequência acaba logo", message: "${username}, resgate seu ORO hoje para manter sua sequência." },
  es: { title: "Tu racha termina pronto", message: "${username}, reclama tu ORO hoy para mantener viva tu racha." },
  es_419: { title: "Tu racha está por terminar", message: "${username}, reclama tu ORO hoy para no perder tu racha." },
  ms: { title: "Rentetan anda hampir tamat", message: "${username}, tuntut ORO anda hari ini supaya rentetan anda tidak terputus." },
  th: { title: "สถิติต่อเนื่องใกล้หมดแล้ว", message: "${username} รับ ORO วันนี้เพื่อรักษาสถิติต่อเนื่องของคุณ" },
  id: { title: "Streakmu segera berakhir", message: "${username}, klaim ORO-mu hari ini agar streak-mu tetap berjalan." },
  it: { title: "La tua serie sta per finire", message: "${username}, riscatta il tuo ORO oggi per non perdere la tua serie." },
  zh_TW: { title: "連續紀錄即將中斷", message: "${username}，今天領取你的 ORO，別讓連續紀錄中斷。" },
  nl: { title: "Je reeks loopt bijna af", message: "${username}, claim vandaag je ORO om je reeks niet kwijt te raken." },
};
