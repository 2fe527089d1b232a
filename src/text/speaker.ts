/**
 * @module text/speaker
 * "Speaker: text", unless the text already opens with the speaker's name (a transcript pasted as it was
 * written), which once gave "Priya: Priya: ..." in the index and on screen.
 */
export function withSpeaker(speaker: string | null, text: string): string {
  if (!speaker) return text;
  return text.toLowerCase().startsWith(`${speaker.toLowerCase()}:`) ? text : `${speaker}: ${text}`;
}
