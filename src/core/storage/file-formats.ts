import path from 'node:path';

/** The coarse kind of a file, as Chatwoot reports it on attachments. */
export type FileKind = 'image' | 'audio' | 'video' | 'file';

export interface FileFormat {
  kind: FileKind;
  /** The canonical MIME type stored and served (`image/jpg` becomes `image/jpeg`, …). */
  contentType: string;
  /** Lower-case extension without the dot, or null when the name has none. */
  extension: string | null;
}

interface Format {
  kind: FileKind;
  contentType: string;
  extensions: string[];
  /** Other MIME spellings clients send for the same format. */
  aliases?: string[];
}

/**
 * The accepted formats: the spec's images (PNG, JPG, GIF, WebP) and documents (PDF, DOC, XLS),
 * plus what a production helpdesk also takes for documents (DOCX, XLSX, plain text, CSV).
 * SVG, HTML and other active content are deliberately absent: files are served from the
 * service's own origin.
 */
const DOCUMENTS_AND_IMAGES: Format[] = [
  { kind: 'image', contentType: 'image/png', extensions: ['png'] },
  {
    kind: 'image',
    contentType: 'image/jpeg',
    extensions: ['jpg', 'jpeg', 'jpe', 'jfif'],
    aliases: ['image/jpg', 'image/pjpeg'],
  },
  { kind: 'image', contentType: 'image/gif', extensions: ['gif'] },
  { kind: 'image', contentType: 'image/webp', extensions: ['webp'] },
  { kind: 'file', contentType: 'application/pdf', extensions: ['pdf'], aliases: ['application/x-pdf'] },
  { kind: 'file', contentType: 'application/msword', extensions: ['doc', 'dot'] },
  {
    kind: 'file',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
  },
  // Windows browsers with Excel installed send this type for .csv files too.
  { kind: 'file', contentType: 'application/vnd.ms-excel', extensions: ['xls', 'xlt', 'csv'] },
  {
    kind: 'file',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extensions: ['xlsx'],
  },
  {
    kind: 'file',
    contentType: 'text/csv',
    extensions: ['csv'],
    aliases: ['application/csv', 'text/x-csv', 'text/comma-separated-values'],
  },
  { kind: 'file', contentType: 'text/plain', extensions: ['txt', 'text', 'log', 'csv'] },
];

/**
 * Audio and video: a fixed list of canonical types (what phones, browsers and messaging apps send:
 * voice notes as ogg/opus, amr or m4a; clips as mp4, webm, mov or 3gp). Any other `audio/*` or
 * `video/*` subtype (`video/x-html`...) is stored and served as `application/octet-stream`, a
 * download, never inline under a type a browser might treat as something else.
 */
const MEDIA: Format[] = [
  {
    kind: 'audio',
    contentType: 'audio/mpeg',
    extensions: ['mp3', 'mpga', 'mpeg'],
    aliases: ['audio/mp3', 'audio/mpeg3', 'audio/x-mpeg', 'audio/x-mp3'],
  },
  { kind: 'audio', contentType: 'audio/mp4', extensions: ['m4a', 'mp4', 'aac'], aliases: ['audio/x-m4a', 'audio/m4a'] },
  { kind: 'audio', contentType: 'audio/aac', extensions: ['aac', 'm4a'], aliases: ['audio/x-aac', 'audio/aacp'] },
  {
    kind: 'audio',
    contentType: 'audio/ogg',
    extensions: ['ogg', 'oga', 'opus'],
    aliases: ['audio/opus', 'audio/vorbis', 'audio/x-ogg'],
  },
  {
    kind: 'audio',
    contentType: 'audio/wav',
    extensions: ['wav'],
    aliases: ['audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  },
  { kind: 'audio', contentType: 'audio/webm', extensions: ['weba', 'webm'] },
  { kind: 'audio', contentType: 'audio/amr', extensions: ['amr'], aliases: ['audio/amr-wb', 'audio/x-amr'] },
  { kind: 'audio', contentType: 'audio/flac', extensions: ['flac'], aliases: ['audio/x-flac'] },
  { kind: 'audio', contentType: 'audio/3gpp', extensions: ['3gp'] },
  { kind: 'audio', contentType: 'audio/aiff', extensions: ['aif', 'aiff'], aliases: ['audio/x-aiff'] },
  { kind: 'video', contentType: 'video/mp4', extensions: ['mp4', 'm4v'], aliases: ['video/x-m4v'] },
  { kind: 'video', contentType: 'video/webm', extensions: ['webm'] },
  { kind: 'video', contentType: 'video/quicktime', extensions: ['mov', 'qt'] },
  { kind: 'video', contentType: 'video/3gpp', extensions: ['3gp'] },
  { kind: 'video', contentType: 'video/3gpp2', extensions: ['3g2'] },
  { kind: 'video', contentType: 'video/ogg', extensions: ['ogv', 'ogg'] },
  { kind: 'video', contentType: 'video/x-msvideo', extensions: ['avi'], aliases: ['video/avi', 'video/msvideo'] },
  { kind: 'video', contentType: 'video/x-matroska', extensions: ['mkv'] },
  { kind: 'video', contentType: 'video/mpeg', extensions: ['mpeg', 'mpg'] },
];

const FORMATS = [...DOCUMENTS_AND_IMAGES, ...MEDIA];

/** Types that say nothing about the content: the extension decides. */
const UNTYPED = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/x-download',
  'application/force-download',
]);

export const SUPPORTED_FORMATS_TEXT =
  'images (PNG, JPG, GIF, WebP), documents (PDF, DOC, DOCX, XLS, XLSX, TXT, CSV), audio and video';

/** Lower-case extension of a file name without the dot, or null. */
export function extensionOf(fileName: string): string | null {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : null;
}

const normalizeType = (raw: string | undefined | null) =>
  String(raw ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();

/**
 * Decides whether a file may be stored, from its declared MIME type and its name's extension.
 * A typed upload is accepted when its type is listed and the extension (if any) agrees with it;
 * an untyped upload (`application/octet-stream`) is typed from its extension; an unlisted audio or
 * video subtype is kept as a plain download (`application/octet-stream`). Returns undefined for
 * anything else. The content itself is not sniffed: files are served with the stored type and
 * `X-Content-Type-Options: nosniff`, so a mislabelled file cannot become active.
 */
export function classifyFile(declaredType: string | undefined | null, fileName: string): FileFormat | undefined {
  const type = normalizeType(declaredType);
  const extension = extensionOf(fileName);

  if (UNTYPED.has(type)) {
    if (!extension) return undefined;
    const known = FORMATS.find((f) => f.extensions.includes(extension));
    return known ? { kind: known.kind, contentType: known.contentType, extension } : undefined;
  }

  const listed = FORMATS.find((f) => f.contentType === type || f.aliases?.includes(type));
  if (listed) {
    if (extension && !listed.extensions.includes(extension)) return undefined;
    return { kind: listed.kind, contentType: listed.contentType, extension };
  }

  if (/^(audio|video)\/[a-z0-9][a-z0-9.+-]{0,99}$/.test(type)) {
    return { kind: 'file', contentType: 'application/octet-stream', extension };
  }
  return undefined;
}

/** Whether a browser may render the type inline (everything else is served as a download). */
export const isInlineKind = (kind: FileKind): boolean => kind !== 'file';
