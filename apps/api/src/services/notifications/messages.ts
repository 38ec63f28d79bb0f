import { isWorldNotificationLanguage, type WorldNotificationLanguage } from "@oro/clients";
import { LOCALES, type Locale } from "../../lib/locales.js";

export interface Localisation {
  /** A language World's notification API accepts (not every one of ours: it has no Filipino). */
  language: WorldNotificationLanguage;
  /** World App shows at most 30 characters. */
  title: string;
  /** At most 200 characters. */
  message: string;
}

/**
 * The claim reminder in every language of the product. World's API accepts only its own list of languages and
 * refuses a whole request naming another, so only those are sent; a user whose language it lacks (fil) gets the
 * English text, which World App shows itself. The tests check each text against World's rules.
 */
export const CLAIM_REMINDER: Record<Locale, Omit<Localisation, "language">> = {
  en: { title: "Your ORO is ready", message: "Your daily ORO claim is open. Claim now to keep your streak going!" },
  es: { title: "Tu ORO está listo", message: "Ya puedes reclamar tu ORO diario. ¡Reclámalo ahora y mantén tu racha!" },
  fil: { title: "Handa na ang ORO mo", message: "Puwede mo nang i-claim ang iyong pang-araw-araw na ORO. Mag-claim na para tuloy-tuloy ang streak mo!" },
  id: { title: "ORO kamu sudah siap", message: "Klaim ORO harianmu sudah dibuka. Klaim sekarang agar streak-mu terus berlanjut!" },
  ja: { title: "ORO を受け取れます", message: "今日の ORO を受け取れるようになりました。今すぐ受け取って連続記録を伸ばしましょう！" },
  ko: { title: "ORO를 받을 수 있어요", message: "오늘의 ORO를 받을 수 있어요. 지금 받고 연속 기록을 이어가세요!" },
  pt: { title: "Seu ORO está pronto", message: "Seu resgate diário de ORO está liberado. Resgate agora e mantenha sua sequência!" },
  th: { title: "ORO ของคุณพร้อมแล้ว", message: "คุณรับ ORO ประจำวันได้แล้ว รับเลยตอนนี้เพื่อรักษาสถิติต่อเนื่องของคุณ!" },
};

/**
 * The streak-at-risk nudge: the human's streak lapses within hours and they have not claimed. World App puts the
 * user's name in place of `${username}` (in the message only: beside it a title may have just 16 characters).
 */
export const STREAK_AT_RISK: Record<Locale, Omit<Localisation, "language">> = {
  en: { title: "Your streak ends soon", message: "${username}, claim your ORO today to keep your streak alive." },
  es: { title: "Tu racha termina pronto", message: "${username}, reclama tu ORO hoy para mantener viva tu racha." },
  fil: { title: "Matatapos na ang streak mo", message: "${username}, i-claim ang ORO mo ngayon para hindi maputol ang streak mo." },
  id: { title: "Streakmu segera berakhir", message: "${username}, klaim ORO-mu hari ini agar streak-mu tetap berjalan." },
  ja: { title: "連続記録がまもなく途切れます", message: "${username} さん、今日 ORO を受け取って連続記録を守りましょう。" },
  ko: { title: "연속 기록이 곧 끊겨요", message: "${username}님, 오늘 ORO를 받고 연속 기록을 이어가세요." },
  pt: { title: "Sua sequência acaba logo", message: "${username}, resgate seu ORO hoje para manter sua sequência." },
  th: { title: "สถิติต่อเนื่องใกล้หมดแล้ว", message: "${username} รับ ORO วันนี้เพื่อรักษาสถิติต่อเนื่องของคุณ" },
};

function localisations(texts: Record<Locale, Omit<Localisation, "language">>): Localisation[] {
  return LOCALES.flatMap((language) => (isWorldNotificationLanguage(language) ? [{ language, ...texts[language] }] : []));
}

/** The reminder in each of our languages that World accepts. */
export function claimReminderLocalisations(): Localisation[] {
  return localisations(CLAIM_REMINDER);
}

export function streakAtRiskLocalisations(): Localisation[] {
  return localisations(STREAK_AT_RISK);
}
