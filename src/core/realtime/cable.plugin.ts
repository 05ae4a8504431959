import websocket from '@fastify/websocket';
import type { App } from '../http/app.types.js';
import { shutdownDeadlineOf } from '../http/shutdown.js';
import type { CableHub } from './cable.hub.js';
import { selectSubprotocol } from './cable.protocol.js';

export interface CableRouteOptions {
  /** Where clients connect (ActionCable's default mount point). */
  path?: string;
  /** Largest client frame accepted; a bigger one closes the socket with 1009. */
  maxPayloadBytes?: number;
}

/**
 * Registers `@fastify/websocket` and the ActionCable endpoint (`GET /cable` by default) on the app.
 * Register it before the HTTP routes: the plugin wraps the routes added after it, so an upgrade
 * request to any other path is closed instead of answered over a hijacked socket. On close, the
 * hub tells clients to reconnect and closes their sockets with 1001 before the server stops.
 */
export async function registerCable<S>(app: App, hub: CableHub<S>, options: CableRouteOptions = {}): Promise<void> {
  await app.register(websocket, {
    options: {
      maxPayload: options.maxPayloadBytes ?? 64 * 1024,
      perMessageDeflate: false,
      handleProtocols: (offered) => selectSubprotocol(offered),
    },
    preClose: async () => {
      await hub.close(shutdownDeadlineOf(app));
      app.websocketServer.close();
    },
  });
  app.get(options.path ?? '/cable', { websocket: true, schema: { hide: true } }, (socket) => hub.attach(socket));
}
