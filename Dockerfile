# Lectern in a container: `docker build -t lectern . && docker run -p 3001:3001 -v lectern:/data lectern`.
# The entry is the `lectern` command (serve by default): `docker exec CONTAINER lectern backup /data/b.tar.gz`.
# deploy/compose.yaml runs it with Ollama.

# Build: dependencies, the client bundle and the server's (dist/server/, scripts/build_server.ts).
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
COPY deno.json deno.lock* package.json ./
COPY . .
RUN deno install && deno task build && deno cache server/main.ts

# Run: the built app, owned by root and read-only to the server's user; the storage is the only writable place.
# The server runs on the node_modules `deno install` made (manual mode: no npm resolution pass per npm import at start),
# from its bundle: a few dozen files of JavaScript to load at start rather than about 600 modules.
# No V8 code cache (as the start and lectern tasks): 1.1-2.1 MiB less of an idle server (Deno's SQLite database of
# it and the heap it is read into), for 20-30 ms more CPU to start (issue 21).
FROM denoland/deno:2.9.6
WORKDIR /app
COPY --from=build /app /app
COPY --from=build /deno-dir /deno-dir
RUN printf '#!/bin/sh\nexec deno run -A --cached-only --no-code-cache --node-modules-dir=manual /app/dist/server/bundle_main.js "$@"\n' > /usr/local/bin/lectern \
  && chmod 0755 /usr/local/bin/lectern \
  && mkdir -p /data && chown deno:deno /data && chmod 0700 /data
ENV STORAGE_DIR=/data HOST=0.0.0.0 PORT=3001 LANCEDB_LOG=error DENO_NO_UPDATE_CHECK=1
VOLUME ["/data"]
EXPOSE 3001
USER deno
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:3001/api/ping'); Deno.exit(r.ok ? 0 : 1)"]
ENTRYPOINT ["lectern"]
CMD ["serve"]
