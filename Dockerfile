# Lectern in a container: `docker build -t lectern . && docker run -p 3001:3001 -v lectern:/data lectern`
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
COPY deno.json deno.lock* package.json ./
COPY . .
RUN deno install && deno task build

FROM denoland/deno:2.9.6
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown -R deno:deno /data /app
ENV STORAGE_DIR=/data HOST=0.0.0.0 PORT=3001 LANCEDB_LOG=error
VOLUME ["/data"]
EXPOSE 3001
USER deno
HEALTHCHECK --interval=30s --timeout=5s CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:3001/api/ping'); Deno.exit(r.ok ? 0 : 1)"]
CMD ["run", "-A", "server/main.ts"]
