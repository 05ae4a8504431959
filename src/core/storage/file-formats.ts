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
  { kind: 'image', contentType: 'image/jpeg', extensions: ['jpg', 'jpeg', 'jpe', 'jfif'], aliases: ['image/jpg', 'image/pjpeg'] },
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
  { kind: 'file', contentType: 'text/csv', extensions: ['csv'], aliases: ['application/csv', 'text/x-csv', 'text/comma-separated-values'] },
  { kind: 'file', contentType: 'text/plain', extensions: ['txt', 'text', 'log', 'csv'] },
];

/**
 * Audio and video: the spec names no formats, so any `audio/*` or `video/*` type is taken
 * (voice notes arrive as ogg/opus, amr, m4a, webm…) as long as the name's extension, if any,
 * is a media extension of that kind. Listed types only map extensions for untyped uploads.
 */
const AUDIO_EXTENSIONS = ['mp3', 'mpga', 'm4a', 'aac', 'ogg', 'oga', 'opus', 'wav', 'weba', 'webm', 'amr', 'flac', '3gp', 'mp4', 'aif', 'aiff', 'wma', 'caf'];
const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'webm', 'mov', 'qt', '3gp', '3g2', 'ogv', 'ogg', 'avi', 'mkv', 'mpeg', 'mpg', 'wmv'];
const MEDIA_BY_EXTENSION: Record<string, Format> = {
  mp3: { kind: 'audio', contentType: 'audio/mpeg', extensions: [] },
  m4a: { kind: 'audio', contentType: 'audio/mp4', extensions: [] },
  aac: { kind: 'audio', contentType: 'audio/aac', extensions: [] },
  oga: { kind: 'audio', contentType: 'audio/ogg', extensions: [] },
  ogg: { kind: 'audio', contentType: 'audio/ogg', extensions: [] },
  opus: { kind: 'audio', contentType: 'audio/ogg', extensions: [] },
  wav: { kind: 'audio', contentType: 'audio/wav', extensions: [] },
  amr: { kind: 'audio', contentType: 'audio/amr', extensions: [] },
  flac: { kind: 'audio', contentType: 'audio/flac', extensions: [] },
  mp4: { kind: 'video', contentType: 'video/mp4', extensions: [] },
  m4v: { kind: 'video', contentType: 'video/mp4', extensions: [] },
  webm: { kind: 'video', contentType: 'video/webm', extensions: [] },
  mov: { kind: 'video', contentType: 'video/quicktime', extensions: [] },
  '3gp': { kind: 'video', contentType: 'video/3gpp', extensions: [] },
  ogv: { kind: 'video', contentType: 'video/ogg', extensions: [] },
  avi: { kind: 'video', contentType: 'video/x-msvideo', extensions: [] },
  mkv: { kind: 'video', contentType: 'video/x-matroska', extensions: [] },
  mpeg: { kind: 'video', contentType: 'video/mpeg', extensions: [] },
  mpg: { kind: 'video', contentType: 'video/mpeg', extensions: [] },
};

/** Types that say nothing about the content: the extension decides. */
const UNTYPED = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download', 'application/force-download']);

export const SUPPORTED_FORMATS_TEXT =
  'images (PNG, JPG, GIF, WebP), documents (PDF, DOC, DOCX, XLS, XLSX, TXT, CSV), audio and video';

/** Lower-case extension of a file name without the dot, or null. */
export function extensionOf(fileName: string): string | null {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : null;
}

const normalizeType = (raw: string | undefined | null) => String(raw ?? '').split(';')[0].trim().toLowerCase();

/**
 * Decides whether a file may be stored, from its declared MIME type and its name's extension.
 * A typed upload is accepted when its type is supported and the extension (if any) agrees with
 * it; an untyped upload (`application/octet-stream`) is typed from its extension. Returns
 * undefined for anything else. The content itself is not sniffed: files are served with the
 * stored type and `X-Content-Type-Options: nosniff`, so a mislabelled file cannot become active.
 */
export function classifyFile(declaredType: string | undefined | null, fileName: string): FileFormat | undefined {
  const type = normalizeType(declaredType);
  const extension = extensionOf(fileName);

  if (UNTYPED.has(type)) {
    if (!extension) return undefined;
    const known = DOCUMENTS_AND_IMAGES.find((f) => f.extensions.includes(extension)) ?? MEDIA_BY_EXTENSION[extension];
    return known ? { kind: known.kind, contentType: known.contentType, extension } : undefined;
  }

  const listed = DOCUMENTS_AND_IMAGES.find((f) => f.contentType === type || f.aliases?.includes(type));
  if (listed) {
    if (extension && !listed.extensions.includes(extension)) return undefined;
    return { kind: listed.kind, contentType: listed.contentType, extension };
  }

  const media = /^(audio|video)\/([a-z0-9][a-z0-9.+-]{0,99})$/.exec(type);
  if (media) {
    const kind = media[1] as 'audio' | 'video';
    const allowed = kind === 'audio' ? AUDIO_EXTENSIONS : VIDEO_EXTENSIONS;
    if (extension && !allowed.includes(extension)) return undefined;
    return { kind, contentType: type, extension };
  }
  return undefined;
}

/** Whether a browser may render the type inline (everything else is served as a download). */
export const isInlineKind = (kind: FileKind): boolean => kind !== 'file';
