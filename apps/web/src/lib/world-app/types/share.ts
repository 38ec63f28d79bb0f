export interface ShareContent {
  title?: string;
  text: string;
  url?: string;
}
