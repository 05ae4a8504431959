import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A customer's website on another origin (its own port): its pages embed Chatwoot's snippet as
 * Chatwoot's inbox settings give it, with only BASE_URL pointing at the conversation service.
 * `/<any path>?token=...&locale=...&type=...` is a page with the snippet; `/frames?...` frames two pages of
 * the service directly (to see which ones refuse to be framed).
 */
export interface HostSite {
  origin: string;
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/[^\w.:/?=&%-]/g, '');

function snippetPage(base: string, query: URLSearchParams): string {
  const settings: Record<string, unknown> = { position: 'right', type: query.get('type') ?? 'standard' };
  if (query.get('locale')) settings.locale = query.get('locale');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme Shop</title></head>
<body style="font-family: sans-serif; margin: 0; padding: 32px; background: #fafaf9">
<main><h1>Acme Shop</h1><p>Hand-made ceramics, shipped from Porto.</p></main>
<script>
  window.received = [];
  window.errors = [];
  window.addEventListener('chatwoot:ready', function () { window.chatwootReady = true; });
  window.addEventListener('chatwoot:on-message', function (e) { window.received.push(e.detail); });
  window.addEventListener('chatwoot:error', function (e) { window.errors.push(e.detail); });
  window.chatwootSettings = ${JSON.stringify(settings)};
  (function(d,t) {
    var BASE_URL="${escape(base)}";
    var g=d.createElement(t),s=d.getElementsByTagName(t)[0];
    g.src=BASE_URL+"/packs/js/sdk.js";
    g.defer = true;
    g.async = true;
    s.parentNode.insertBefore(g,s);
    g.onload=function(){
      window.chatwootSDK.run({
        websiteToken: '${escape(query.get('token') ?? '')}',
        baseUrl: BASE_URL
      })
    }
  })(document,"script");
</script>
</body>
</html>`;
}

function framesPage(base: string, query: URLSearchParams): string {
  const token = escape(query.get('token') ?? '');
  return `<!doctype html><html lang="en"><head><title>Frames</title></head><body>
<iframe title="widget" name="widget" src="${escape(base)}/widget?website_token=${token}" width="400" height="500"></iframe>
<iframe title="dashboard" name="dashboard" src="${escape(base)}/app/login" width="400" height="500"></iframe>
</body></html>`;
}

export async function startHostSite(base: string): Promise<HostSite> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host.test');
    const body = url.pathname === '/frames' ? framesPage(base, url.searchParams) : snippetPage(base, url.searchParams);
    res.writeHead(url.pathname === '/favicon.ico' ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
