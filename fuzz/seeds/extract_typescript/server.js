'use strict'
const fastify = require('fastify')()
const { handler } = require('./handlers')
module.exports = function plugin (app, opts, done) {
  app.get('/items/:id', async (request, reply) => { reply.code(201).send({ id: request.params.id }) })
  app.register(require('./sub'), { prefix: '/v1' })
  done()
}
server.tool(TOOLS.list_items, 'Lists items', { q: z.string() }, async ({ q }) => handler(q))
