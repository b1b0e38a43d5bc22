/**
 * `/open/docs`: the reference page, Swagger UI from our own node_modules (no CDN), reading `/open/v1/openapi.json`.
 * Its page and its start script are ours (the viewer's own pair points at a sample API), the rest is the viewer's.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import fastifyStatic from '@fastify/static';
import { OPEN_BASE, OPEN_DOCS_PATH } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';

const ASSETS = `${OPEN_DOCS_PATH}/assets/`;

const PAGE = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AI超级分身 开放接口</title>
<link rel="stylesheet" href="${ASSETS}swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${ASSETS}swagger-ui-bundle.js"></script>
<script src="${OPEN_DOCS_PATH}/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({ url: '${OPEN_BASE}/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null });\n`;

export async function registerDocsPage(ctx: FeatureContext): Promise<void> {
  const root = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await ctx.app.register(async (scope) => {
    scope.get(OPEN_DOCS_PATH, (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE));
    scope.get(`${OPEN_DOCS_PATH}/start.js`, (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(START));
    await scope.register(fastifyStatic, { root, prefix: ASSETS, decorateReply: false, allowedPath: (file) => /^\/?swagger-ui(-bundle\.js|\.css)$/.test(file) });
  });
}
