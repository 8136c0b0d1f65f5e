import type { FastifyPluginAsync } from "fastify";

export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.get("/api/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
};
