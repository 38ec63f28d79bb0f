import type { Language } from "@oro/clients";

/**
 * The partner mini apps: the one place the apps directory, the about page's app cards and the partner
 * announcements read them from. Names are brands (the same in every language); the one-line description is
 * given in all eight languages here, so an app is added or removed in this file alone.
 */
export interface PartnerApp {
  id: string;
  name: string;
  /** Opened through the wallet (World App opens a mini app link in place). */
  url: string;
  /** The tile's colours: the app's initial is drawn on them (no image to load). */
  colors: { background: string; foreground: string };
  tagline: Record<Language, string>;
  /** Announced once to every user (an announcement modal) when set: the id is what storage remembers. */
  announcement?: { id: string };
  /** Shown as one of the about page's two app cards. */
  onAboutPage?: boolean;
}

const miniApp = (appId: string) => `https://world.org/mini-app?app_id=${appId}`;

export const PARTNER_APPS: readonly PartnerApp[] = [
  {
    id: "uno",
    name: "UNO",
    url: miniApp("app_a4f7f3e62c1de0b9490a5260cb390b56"),
    colors: { background: "#1f3fd6", foreground: "#ffffff" },
    onAboutPage: true,
    tagline: {
      en: "Swap ORO and other tokens in seconds.",
      es: "Intercambia ORO y otros tokens en segundos.",
      fil: "Mag-swap ng ORO at iba pang token sa ilang segundo.",
      id: "Tukar ORO dan token lain dalam hitungan detik.",
      ja: "ORO やほかのトークンを数秒でスワップ。",
      ko: "ORO와 다른 토큰을 몇 초 만에 스왑하세요.",
      pt: "Troque ORO e outros tokens em segundos.",
      th: "สลับ ORO และโทเคนอื่น ๆ ได้ในไม่กี่วินาที",
    },
  },
  {
    id: "world-id",
    name: "World ID",
    url: "https://world.org/world-id",
    colors: { background: "#10162f", foreground: "#ffffff" },
    onAboutPage: true,
    tagline: {
      en: "Prove you are a unique human, privately.",
      es: "Demuestra que eres un humano único, en privado.",
      fil: "Patunayan na ikaw ay natatanging tao, nang pribado.",
      id: "Buktikan bahwa Anda manusia unik, secara privat.",
      ja: "プライバシーを守りながら、唯一の人間であることを証明。",
      ko: "개인정보를 지키며 고유한 사람임을 증명하세요.",
      pt: "Prove que você é um humano único, com privacidade.",
      th: "พิสูจน์ว่าคุณเป็นมนุษย์ที่ไม่ซ้ำใคร อย่างเป็นส่วนตัว",
    },
  },
  {
    id: "oro-arena",
    name: "ORO Arena",
    url: miniApp("app_oro_arena"),
    colors: { background: "#f5b400", foreground: "#5c3a00" },
    announcement: { id: "partner:oro-arena" },
    tagline: {
      en: "Daily tournaments: play, climb the board, win prizes.",
      es: "Torneos diarios: juega, sube en la tabla y gana premios.",
      fil: "Araw-araw na torneo: maglaro, umakyat sa ranggo, manalo ng premyo.",
      id: "Turnamen harian: main, naik peringkat, menangkan hadiah.",
      ja: "毎日のトーナメント：プレイしてランキングを上げ、賞品をゲット。",
      ko: "매일 열리는 토너먼트: 플레이하고 순위를 올려 상품을 받으세요.",
      pt: "Torneios diários: jogue, suba no ranking e ganhe prêmios.",
      th: "ทัวร์นาเมนต์รายวัน: เล่น ไต่อันดับ และรับรางวัล",
    },
  },
  {
    id: "human-polls",
    name: "Human Polls",
    url: miniApp("app_human_polls"),
    colors: { background: "#15945c", foreground: "#ffffff" },
    tagline: {
      en: "Questions answered by verified humans only.",
      es: "Preguntas respondidas solo por humanos verificados.",
      fil: "Mga tanong na sinasagot lamang ng mga beripikadong tao.",
      id: "Pertanyaan yang dijawab hanya oleh manusia terverifikasi.",
      ja: "認証済みの人間だけが答える質問。",
      ko: "인증된 사람만 답하는 질문들.",
      pt: "Perguntas respondidas apenas por humanos verificados.",
      th: "คำถามที่ตอบโดยมนุษย์ที่ยืนยันตัวตนแล้วเท่านั้น",
    },
  },
];

/** The tournament promo's game (the partner whose tournament it announces). */
export const TOURNAMENT_APP_ID = "oro-arena";

export function partnerApp(id: string): PartnerApp | undefined {
  return PARTNER_APPS.find((app) => app.id === id);
}
