/**
 * Prompts go to engines in English ('Only in English'); the prompt helper is the way in from the
 * other five interface languages. This check refuses what is clearly not English and lets the
 * rest through: digits, punctuation, emoji, brand names and loanwords ("café", "Pokémon",
 * "Motörhead") are fine. Other Latin-script languages (French, Spanish…) are not detected.
 */

// Letters no English text has: Azerbaijani (and Turkish) ə ı ğ, the Kazakh Latin ǵ ń.
const NEVER_ENGLISH_LETTERS = /[əƏığĞǵǴńŃ]/u;
// Letters that appear in English only in borrowed names; they tip the scale together with stopwords.
const GERMAN_LETTERS = /[äöüßÄÖÜẞ]/u;
const AZERBAIJANI_LETTERS = /[şŞçÇöÖüÜ]/u;

// Function words that are not also English words (so no "die", "den", "am", "fur", "men").
const GERMAN_WORDS = new Set(
  (
    'der das dem des ein eine einen einem einer eines und oder mit ohne für über unter ' +
    'auf aus bei nach vom zum zur beim ist sind wird werden wurde nicht kein keine ich mich mir du ' +
    'dich dir sie ihr ihre ihren sein seine seinen wir uns sehr auch noch schon nur wie mein meine ' +
    'meinen bitte mache machen zeig zeige erstelle erstellen bild bilder foto stil im vor ' +
    'hinter neben zwischen dass wenn aber großen grossen kleinen schönen schonen ' +
    // A few nouns every German picture wish has.
    'meer katze hund frau wald berge strand sonnenuntergang himmel stadt nacht straße strasse'
  ).split(' '),
);
const AZERBAIJANI_WORDS = new Set(
  (
    've və bir ile ilə ucun üçün cox çox mən meni məni menim mənim olan kimi bu şəkil sekil ' +
    'şəkli sekli uslubunda üslubunda stilinde stilində sahil sahilində sahilinde deniz dəniz ' +
    'gunes günəş qiz qız oglan oğlan gozel gözəl boyuk böyük kicik kiçik yaz isti soyuq ' +
    'dagda dağda daglar dağlar meşə mese evde evdə'
  ).split(' '),
);

// Words: letters with inner apostrophes and hyphens ("don't", "gore-tex").
const WORD = /\p{L}+(?:['’-]\p{L}+)*/gu;

/**
 * True when `text` may be sent as an English prompt: only Latin letters, none that English never
 * uses, and not German or Azerbaijani by their function words. Empty text is English.
 */
export function isEnglishPrompt(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  // Cyrillic, Greek, Arabic, CJK…: any letter outside the Latin script.
  if (letters.some((letter) => !/\p{Script=Latin}/u.test(letter))) return false;
  if (NEVER_ENGLISH_LETTERS.test(text)) return false;
  const words = (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
  if (!words.length) return true;
  return (
    !looksLike(words, GERMAN_WORDS, GERMAN_LETTERS.test(text)) &&
    !looksLike(words, AZERBAIJANI_WORDS, AZERBAIJANI_LETTERS.test(text))
  );
}

/**
 * A language's function words make up a real share of the text, or one of them comes with the
 * language's own letters. A single stray word ("Das Boot poster") is not enough.
 */
function looksLike(words: string[], stopwords: ReadonlySet<string>, hasOwnLetters: boolean): boolean {
  const hits = words.filter((w) => stopwords.has(w)).length;
  if (hits >= 2 && hits / words.length >= 0.2) return true;
  return hits >= 1 && hasOwnLetters;
}
