import { CLAIM_REMINDER_TEXTS, STREAK_AT_RISK_TEXTS, WORLD_NOTIFICATION_LANGUAGES, type ReminderText, type WorldNotificationLanguage } from "@oro/clients";

export interface Localisation {
  language: WorldNotificationLanguage;
  /** World App shows at most 30 characters. */
  title: string;
  /** At most 200 characters. */
  message: string;
}

/**
 * A reminder in every language World delivers notifications in (the texts' one home is @oro/clients
 * `reminder-texts.ts`): World delivers nothing to a user whose World App language the request lacks, and English to
 * one whose language World does not list.
 */
function localisations(texts: Record<WorldNotificationLanguage, ReminderText>): Localisation[] {
  return WORLD_NOTIFICATION_LANGUAGES.map((language) => ({ language, ...texts[language] }));
}

export function claimReminderLocalisations(): Localisation[] {
  return localisations(CLAIM_REMINDER_TEXTS);
}

export function streakAtRiskLocalisations(): Localisation[] {
  return localisations(STREAK_AT_RISK_TEXTS);
}
