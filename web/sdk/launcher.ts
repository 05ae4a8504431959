import type { LoaderStrings } from './strings.js';

/**
 * The loader's elements on the host page: the bubble (a button, fixed in a corner, with the
 * unread badge) and the frame (created on first need, hidden until opened). Styles are set
 * through the CSSOM (`style.cssText`), which a host page's Content-Security-Policy does not
 * block, and every value is explicit so the host page's CSS does not leak in.
 */

export interface LauncherOptions {
  frameUrl: string;
  position: 'left' | 'right';
  /** `expanded_bubble`: a pill with the launcher title; `standard`: a round button. */
  expanded: boolean;
  launcherTitle: string | null;
  color: string;
  onToggle: () => void;
}

const Z = '2147483000';
const PHONE = '(max-width: 667px)';
const ICON_CHAT = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const ICON_CLOSE = 'M6 6l12 12M18 6L6 18';

function svgIcon(d: string, filled: boolean): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '26');
  svg.setAttribute('height', '26');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', filled ? 'currentColor' : 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', filled ? '0' : '2.4');
  path.setAttribute('stroke-linecap', 'round');
  svg.appendChild(path);
  return svg;
}

export class Launcher {
  readonly bubble: HTMLButtonElement;
  frame: HTMLIFrameElement | null = null;
  private readonly label: HTMLSpanElement;
  private readonly badge: HTMLSpanElement;
  private readonly phone = window.matchMedia(PHONE);
  private open = false;
  private bubbleVisible = true;
  private unread = 0;
  private strings: LoaderStrings;

  constructor(
    private readonly options: LauncherOptions,
    strings: LoaderStrings,
  ) {
    this.strings = strings;
    const bubble = document.createElement('button');
    bubble.type = 'button';
    bubble.className = 'woot-widget-bubble';
    bubble.addEventListener('click', () => options.onToggle());
    this.label = document.createElement('span');
    this.badge = document.createElement('span');
    this.badge.setAttribute('aria-hidden', 'true');
    this.bubble = bubble;
    this.phone.addEventListener('change', () => this.render());
    document.body.appendChild(bubble);
    this.render();
  }

  /** The frame, created (hidden) at the first call. */
  ensureFrame(): HTMLIFrameElement {
    if (this.frame) return this.frame;
    const frame = document.createElement('iframe');
    frame.src = this.options.frameUrl;
    frame.id = 'chatwoot_live_chat_widget';
    frame.setAttribute('allow', 'clipboard-write');
    document.body.appendChild(frame);
    this.frame = frame;
    this.render();
    return frame;
  }

  setOpen(open: boolean): void {
    this.open = open;
    this.render();
  }

  setBubbleVisible(visible: boolean): void {
    this.bubbleVisible = visible;
    this.render();
  }

  setUnread(count: number): void {
    this.unread = count;
    this.render();
  }

  setStrings(strings: LoaderStrings): void {
    this.strings = strings;
    this.render();
  }

  private render(): void {
    const { position, expanded, color } = this.options;
    const phone = this.phone.matches;
    const side = position === 'left' ? 'left' : 'right';
    const b = this.bubble;
    const pill = expanded && !this.open;
    // On a phone the open panel covers the screen and has its own close button.
    const showBubble = this.bubbleVisible && !(this.open && phone);
    b.style.cssText = [
      'position:fixed',
      `${side}:20px`,
      'bottom:20px',
      `z-index:${Z}`,
      `display:${showBubble ? 'inline-flex' : 'none'}`,
      'align-items:center',
      'justify-content:center',
      'gap:8px',
      `height:${pill ? '48px' : '60px'}`,
      pill ? 'padding:0 20px 0 16px' : 'width:60px;padding:0',
      'margin:0',
      `border-radius:${pill ? '24px' : '50%'}`,
      'border:0',
      `background:${color}`,
      'color:#fff',
      'font:600 15px/1 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
      'box-shadow:0 4px 16px rgba(15,23,42,.24)',
      'cursor:pointer',
    ].join(';');
    b.setAttribute('aria-label', this.open ? this.strings.close : this.strings.open);
    b.setAttribute('aria-expanded', String(this.open));
    b.replaceChildren(svgIcon(this.open ? ICON_CLOSE : ICON_CHAT, !this.open));
    if (pill) {
      this.label.textContent = this.options.launcherTitle || this.strings.launcher;
      b.appendChild(this.label);
    }
    if (this.unread > 0 && !this.open) {
      this.badge.textContent = this.unread > 9 ? '9+' : String(this.unread);
      this.badge.style.cssText =
        'position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;box-sizing:border-box;' +
        'border-radius:10px;background:#e11d48;color:#fff;font:700 12px/20px system-ui,sans-serif;text-align:center';
      b.appendChild(this.badge);
      b.setAttribute('aria-label', `${this.strings.open} (${this.unread} ${this.strings.unread})`);
    }
    const f = this.frame;
    if (!f) return;
    f.title = this.strings.frame;
    f.style.cssText = [
      'position:fixed',
      `z-index:${Z}`,
      'border:0',
      'margin:0',
      'padding:0',
      'background:transparent',
      'color-scheme:normal',
      `display:${this.open ? 'block' : 'none'}`,
      ...(phone
        ? ['inset:0', 'width:100%', 'height:100%', 'border-radius:0']
        : [
            `${side}:20px`,
            'bottom:96px',
            'width:400px',
            'height:min(640px, calc(100% - 116px))',
            'border-radius:16px',
            'box-shadow:0 12px 40px rgba(15,23,42,.22)',
          ]),
    ].join(';');
  }
}
