import type { WidgetRefs } from '../events.js';

/** The widget was opened on a site (`webwidget.triggered`); its snapshot is Chatwoot's payload. */
declare module '../events.js' {
  interface ChatEvents {
    webwidget_triggered: { refs: WidgetRefs; snapshot: Record<string, unknown> };
  }
}
