import type { FastifyPluginAsync } from 'fastify'

/** What Fastify reads on a plugin function (the same symbols `fastify-plugin` sets). */
const SKIP_OVERRIDE = Symbol.for('skip-override')
const DISPLAY_NAME = Symbol.for('fastify.display-name')
const PLUGIN_META = Symbol.for('plugin-meta')

/** A plugin's name and the Fastify versions it supports (a semver range), as Fastify checks them. */
export interface PluginMeta {
  name: string
  fastify: string
}

/**
 * Marks `plugin` as Fastify marks a `fastify-plugin` plugin, without depending on that package: its hooks,
 * decorators and error handler apply to the instance that registers it (no encapsulation), Fastify names
 * it `meta.name` and refuses to load it on a version outside `meta.fastify`.
 *
 * @example
 * export const myPlugin = unencapsulatedPlugin(async (app) => { app.decorateRequest('user', null) }, { name: 'my-plugin', fastify: '5.x' })
 */
export function unencapsulatedPlugin<Options extends object>(
  plugin: FastifyPluginAsync<Options>,
  meta: PluginMeta,
): FastifyPluginAsync<Options> {
  Object.defineProperties(plugin, {
    [SKIP_OVERRIDE]: { value: true },
    [DISPLAY_NAME]: { value: meta.name },
    [PLUGIN_META]: { value: { ...meta } },
  })
  return plugin
}
