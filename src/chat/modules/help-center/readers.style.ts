/**
 * The readers' pages' one stylesheet, inlined in each page (no extra request, and the page's
 * Content-Security-Policy allows exactly this style by its hash). The portal's color is the
 * header's background; the text on it, and links, get colors that keep a WCAG AA contrast.
 */

const DEFAULT_COLOR = '#2563eb';

type Rgb = [number, number, number];

function parseHex(color: string | null): Rgb {
  const hex = color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color.slice(1) : DEFAULT_COLOR.slice(1);
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const contrast = (a: Rgb, b: Rgb) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [15, 23, 42];

/** The color darkened until white text on it (or it on white) reaches 4.5:1. */
function darkEnough(rgb: Rgb): Rgb {
  let c = rgb;
  for (let i = 0; i < 40 && contrast(c, WHITE) < 4.5; i++) c = c.map((v) => v * 0.92) as Rgb;
  return c;
}

export interface Palette {
  brand: string;
  onBrand: string;
  /** Links and buttons on white. */
  accent: string;
}

export function paletteOf(color: string | null): Palette {
  const brand = parseHex(color);
  return {
    brand: toHex(brand),
    onBrand: contrast(brand, WHITE) >= contrast(brand, INK) ? '#ffffff' : toHex(INK),
    accent: toHex(darkEnough(brand)),
  };
}

export function stylesheet(p: Palette): string {
  return `:root{--brand:${p.brand};--on-brand:${p.onBrand};--accent:${p.accent}}${CSS}`;
}

const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;font-size:16px;line-height:1.65;color:#1e293b;background:#f6f8fb}
a{color:var(--accent);text-underline-offset:2px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:4px}
.wrap{max-width:1080px;margin:0 auto;padding:0 24px}
.skip{position:absolute;left:-10000px;top:auto}
.skip:focus{left:16px;top:12px;z-index:10;background:#fff;color:#0f172a;padding:8px 14px;border-radius:6px}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.site-header{background:var(--brand);color:var(--on-brand)}
.site-header a{color:inherit}
.site-header :focus-visible{outline-color:var(--on-brand)}
.topbar{display:flex;align-items:center;justify-content:space-between;gap:16px;padding:18px 0;flex-wrap:wrap}
.brand{font-weight:700;font-size:1.2rem;text-decoration:none;letter-spacing:-.01em}
.toplinks,.langs{display:flex;align-items:center;flex-wrap:wrap;gap:6px 18px;font-size:.95rem}
.toplinks a,.toplinks span{white-space:nowrap}
.toplinks a{text-decoration:none;opacity:.92}
.toplinks a:hover{opacity:1;text-decoration:underline}
.hero{padding:36px 0 64px;text-align:center}
.hero h1{font-size:2.4rem;line-height:1.2;margin:0 0 28px;font-weight:700;letter-spacing:-.02em}
.subbar{padding:4px 0 28px}
.search{display:flex;max-width:640px;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 12px 32px rgba(15,23,42,.2);overflow:hidden}
.subbar .search{margin:0;max-width:520px;box-shadow:0 4px 14px rgba(15,23,42,.15)}
.search:focus-within{box-shadow:0 0 0 3px rgba(255,255,255,.85),0 12px 32px rgba(15,23,42,.2)}
.search input{flex:1;min-width:0;border:0;background:transparent;padding:15px 18px;font:inherit;font-size:1.05rem;color:#0f172a}
.subbar .search input{padding:11px 16px;font-size:1rem}
.search input:focus{outline:none}
.search input::placeholder{color:#94a3b8}
.search button{border:0;background:var(--accent);color:#fff;padding:0 24px;font:inherit;font-weight:600;cursor:pointer}
.search button:hover{filter:brightness(1.08)}
main.wrap{padding-top:36px;padding-bottom:72px;min-height:50vh}
.crumbs ol{list-style:none;margin:0 0 24px;padding:0;display:flex;flex-wrap:wrap;gap:6px;font-size:.9rem;color:#64748b}
.crumbs li+li::before{content:"›";margin-right:6px;color:#94a3b8}
.crumbs a{color:#475569;text-decoration:none}
.crumbs a:hover{color:var(--accent);text-decoration:underline}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(310px,1fr));gap:22px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:24px 26px;box-shadow:0 1px 2px rgba(15,23,42,.04)}
.card h2{font-size:1.15rem;line-height:1.35;margin:0 0 4px}
.card h2 a{color:#0f172a;text-decoration:none}
.card h2 a:hover{color:var(--accent)}
.card .desc{color:#64748b;margin:0 0 12px;font-size:.95rem}
.card .count{display:block;color:#94a3b8;font-size:.85rem;margin-bottom:10px}
.card ul{list-style:none;margin:0;padding:0}
.card li{border-top:1px solid #f1f5f9}
.card li a{display:block;padding:8px 0;color:#334155;text-decoration:none}
.card li a:hover{color:var(--accent)}
.more{display:inline-block;margin-top:10px;font-weight:600;font-size:.92rem;text-decoration:none}
.more:hover{text-decoration:underline}
.section-title{font-size:1.2rem;margin:40px 0 16px;color:#0f172a}
.page-head{margin-bottom:24px}
.page-head h1{font-size:1.9rem;line-height:1.25;margin:0 0 6px;color:#0f172a;letter-spacing:-.01em}
.page-head p{margin:0;color:#64748b}
.list{list-style:none;padding:0;margin:0;background:#fff;border:1px solid #e2e8f0;border-radius:14px;overflow:hidden}
.list li+li{border-top:1px solid #e2e8f0}
.list a{display:block;padding:18px 24px;text-decoration:none;color:inherit}
.list a:hover{background:#f8fafc}
.list .title{display:block;font-weight:600;color:#0f172a}
.list a:hover .title{color:var(--accent)}
.list .snippet{display:block;color:#64748b;font-size:.95rem;margin-top:2px}
.list .tag{display:inline-block;margin-top:6px;font-size:.8rem;color:#475569;background:#f1f5f9;border-radius:999px;padding:1px 10px}
.empty{background:#fff;border:1px dashed #cbd5e1;border-radius:14px;padding:40px 24px;text-align:center;color:#64748b}
.empty strong{display:block;color:#0f172a;font-size:1.1rem;margin-bottom:4px}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 260px;gap:32px;align-items:start}
.doc{background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:44px 52px}
.doc h1{font-size:2.1rem;line-height:1.2;margin:0 0 10px;color:#0f172a;letter-spacing:-.02em}
.doc .lead{font-size:1.15rem;color:#475569;margin:0 0 14px}
.doc .meta{color:#64748b;font-size:.9rem;margin:0 0 30px;padding-bottom:22px;border-bottom:1px solid #e2e8f0}
.body{font-size:1.05rem;overflow-wrap:break-word}
.body h2{font-size:1.5rem;line-height:1.3;margin:1.8em 0 .5em;color:#0f172a}
.body h3{font-size:1.25rem;margin:1.6em 0 .4em;color:#0f172a}
.body h4,.body h5,.body h6{font-size:1.05rem;margin:1.4em 0 .4em;color:#0f172a}
.body p,.body ul,.body ol{margin:0 0 1.1em}
.body li{margin:.25em 0}
.body img{max-width:100%;height:auto;border-radius:8px}
.body blockquote{margin:1.4em 0;padding:.6em 1.1em;border-left:4px solid var(--brand);background:#f8fafc;color:#334155;border-radius:0 8px 8px 0}
.body blockquote p:last-child{margin-bottom:0}
.body code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em;background:#f1f5f9;padding:.15em .4em;border-radius:5px}
.body pre{background:#0f172a;color:#e2e8f0;padding:16px 18px;border-radius:10px;overflow:auto;font-size:.92rem;line-height:1.5}
.body pre code{background:none;padding:0;color:inherit;font-size:inherit}
.body kbd{font-family:inherit;font-size:.85em;border:1px solid #cbd5e1;border-bottom-width:2px;border-radius:5px;padding:.05em .45em;background:#fff}
.body table{border-collapse:collapse;display:block;overflow-x:auto;margin:1.4em 0}
.body th,.body td{border:1px solid #e2e8f0;padding:8px 14px;text-align:left}
.body th{background:#f8fafc}
.body hr{border:0;border-top:1px solid #e2e8f0;margin:2em 0}
.body details{border:1px solid #e2e8f0;border-radius:8px;padding:10px 14px;margin:1em 0}
.body summary{cursor:pointer;font-weight:600}
.back{display:inline-block;margin-top:28px;font-weight:600;text-decoration:none}
.back:hover{text-decoration:underline}
.aside{background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:20px 22px;position:sticky;top:20px}
.aside h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:#64748b;margin:0 0 8px}
.aside ul{list-style:none;margin:0;padding:0}
.aside li a{display:block;padding:6px 0;color:#334155;text-decoration:none;font-size:.95rem;line-height:1.4}
.aside li a:hover{color:var(--accent)}
.pager{display:flex;justify-content:space-between;margin-top:20px}
.pager a{font-weight:600;text-decoration:none}
.site-footer{border-top:1px solid #e2e8f0;padding:26px 0 34px;color:#94a3b8;font-size:.875rem}
.site-footer .wrap{display:flex;justify-content:space-between;gap:16px;flex-wrap:wrap}
.site-footer a{color:#64748b}
@media (max-width:860px){.layout{grid-template-columns:1fr}.aside{position:static}}
@media (max-width:640px){.wrap{padding:0 16px}.topbar{padding:14px 0}.toplinks,.langs{font-size:.875rem;gap:4px 14px}.hero{padding:24px 0 44px}.hero h1{font-size:1.75rem}.doc{padding:26px 20px}.doc h1{font-size:1.6rem}}
`
  .trim()
  .replace(/\n/g, '');
