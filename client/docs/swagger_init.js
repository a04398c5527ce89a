// The API docs viewer's initializer (GET /api/docs, server/developer_api/openapi.ts). A file of its own, not an
// inline script: the page's Content-Security-Policy allows scripts from this server only. build_client.ts copies
// it beside Swagger UI's bundle into dist/static/docs.
/* global SwaggerUIBundle */
globalThis.addEventListener("DOMContentLoaded", () => {
  globalThis.ui = SwaggerUIBundle({
    url: "/api/docs/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // No badge from validator.swagger.io: the page talks to this server only.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    tryItOutEnabled: false,
    displayRequestDuration: true,
  });
});
